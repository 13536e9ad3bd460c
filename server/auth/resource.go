package auth

import (
	"context"
	"errors"
	"unicode"
	"unicode/utf8"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
)

// Location is where a request carries a value the guard reads.
type Location string

const (
	InPath  Location = "path"
	InQuery Location = "query"
	InBody  Location = "body"
)

// Source names one value of a request: a path or query parameter, or a top-level field of a
// JSON body.
type Source struct {
	In   Location
	Name string
}

// Path, Query and Body name a path parameter, a query parameter and a body field.
func Path(name string) Source  { return Source{In: InPath, Name: name} }
func Query(name string) Source { return Source{In: InQuery, Name: name} }
func Body(name string) Source  { return Source{In: InBody, Name: name} }

// String names the value as errors do (errs.Field): "query.workflowId".
func (s Source) String() string { return string(s.In) + "." + s.Name }

// IsZero says whether s names nothing.
func (s Source) IsZero() bool { return s.Name == "" }

// Resource is what an operation whose organisation comes from a resource (Org FromResource)
// acts on: its kind, a key of the Registry that is also the word of its 404 ("knowledge base":
// "Knowledge base not found."), and where the request carries its id.
type Resource struct {
	Kind string
	ID   Source
	// List: the id is a comma-separated list of ids, of one organisation or several.
	List bool
	// Container names the id of the resource's container, for kinds whose ids are unique only in
	// their container (a node's workflow). The request may leave it out: the resource is then
	// looked for in every container of the caller's teams, and an id several of them use is
	// refused, naming Container.
	Container     Source
	ContainerKind string
}

// In names the resource an operation acts on: its kind and where its id is.
func In(kind string, id Source) Resource { return Resource{Kind: kind, ID: id} }

// EachIn names the resources of one kind a list of ids names.
func EachIn(kind string, ids Source) Resource { return Resource{Kind: kind, ID: ids, List: true} }

// Within says the resource's ids are unique only in a container of kind, whose id the request
// may carry at id.
func (r Resource) Within(kind string, id Source) Resource {
	r.ContainerKind, r.Container = kind, id
	return r
}

// IsZero says whether the rule names no resource.
func (r Resource) IsZero() bool { return r.Kind == "" }

// What is the resource's kind as a 404 says it: "Knowledge base".
func (r Resource) What() string { return capitalized(r.Kind) }

func capitalized(s string) string {
	c, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(c)) + s[n:]
}

// Sources lists every value of the request the resource reads.
func (r Resource) Sources() []Source {
	if r.Container.IsZero() {
		return []Source{r.ID}
	}
	return []Source{r.ID, r.Container}
}

// Owned is one resource and who holds it: its organisation and, for kinds whose ids are
// unique only in their container, the container it was found in.
type Owned struct {
	ID             string
	OrganizationID string
	Container      string
}

// Scope narrows the lookup of a kind whose ids are unique only in their container.
type Scope struct {
	// Container is the id of the container the request names ("" when it names none).
	Container string
	// Teams are the organisations the caller stands in: the lookup looks only in theirs.
	Teams []string
}

// Lookup answers the owners of the resources of one kind that ids name (in the scope, for a
// kind whose ids are unique only in their container; the zero Scope otherwise). An id that
// names nothing is left out; an id several containers use is owned once in each.
type Lookup func(ctx context.Context, ids []string, in Scope) ([]Owned, error)

// Registry resolves, by resource kind, who owns what a request names. server/app fills it
// from the domain services; the guard reads it before any handler runs.
type Registry map[string]Lookup

// One makes the Lookup of a kind whose ids are unique from the domain's lookup of one id's
// organisation, which answers store.ErrNotFound or an errs NotFound when there is none.
func One(owner func(ctx context.Context, id string) (string, error)) Lookup {
	return func(ctx context.Context, ids []string, _ Scope) ([]Owned, error) {
		out := make([]Owned, 0, len(ids))
		for _, id := range ids {
			org, err := owner(ctx, id)
			switch {
			case errors.Is(err, store.ErrNotFound) || errs.Is(err, errs.NotFound):
				continue
			case err != nil:
				return nil, err
			}
			out = append(out, Owned{ID: id, OrganizationID: org})
		}
		return out, nil
	}
}

// Many makes the Lookup of a kind whose ids are unique from the domain's lookup of many ids'
// organisations at once (ids without one are left out of its map).
func Many(owners func(ctx context.Context, ids []string) (map[string]string, error)) Lookup {
	return func(ctx context.Context, ids []string, _ Scope) ([]Owned, error) {
		orgs, err := owners(ctx, ids)
		if err != nil {
			return nil, err
		}
		out := make([]Owned, 0, len(orgs))
		for _, id := range ids {
			if org, ok := orgs[id]; ok {
				out = append(out, Owned{ID: id, OrganizationID: org})
				delete(orgs, id) // an id listed twice is owned once
			}
		}
		return out, nil
	}
}

// Store is what the guard reads to know a caller and their standing in a team; *store.DB
// satisfies it.
type Store interface {
	APIKeyByHash(ctx context.Context, hash string) (store.APIKey, error)
	SessionByID(ctx context.Context, id string) (store.Session, error)
	UserByID(ctx context.Context, id string) (store.User, error)
	MemberOf(ctx context.Context, orgID, userID string) (store.Member, error)
	ActiveOrganizationIDs(ctx context.Context, userID string) ([]string, error)
}

var _ Store = (*store.DB)(nil)
