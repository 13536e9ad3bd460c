package calls

import (
	"context"
	"errors"
	"strings"
	"unicode"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/events"
	"github.com/bettyhq/betty/server/store"
)

// InboxItem is the outcome of a finished call.
type InboxItem = store.InboxItem

// InboxQuery is a page of the inbox: Search (words; all items when empty), sorted by SortBy
// (the contract's InboxSortBy: createdAt by default).
type InboxQuery struct {
	Search        *string
	SortBy        string
	Ascending     bool
	Limit, Offset int
}

var inboxSortBy = map[string]string{
	"": "created_at", "createdAt": "created_at", "updatedAt": "updated_at", "priority": "priority", "title": "title", "visibility": "visibility",
}

// Inbox answers a page of the team's inbox items that are not deleted, and how many match.
// A search matches the items where every word of it begins a word of the title or summary;
// a search without any letter or digit matches nothing.
func (s *Service) Inbox(ctx context.Context, a auth.Actor, q InboxQuery) ([]InboxItem, int, error) {
	col, ok := inboxSortBy[q.SortBy]
	if !ok {
		return nil, 0, errs.InvalidField("query.sortBy", "sortBy must be one of createdAt, updatedAt, priority, title, visibility.")
	}
	sq := store.InboxQuery{SortBy: col, Ascending: q.Ascending, Limit: q.Limit, Offset: q.Offset}
	if q.Search != nil {
		sq.Words = searchWords(*q.Search)
		if len(sq.Words) == 0 {
			return []InboxItem{}, 0, nil
		}
	}
	return s.db.ListInboxItems(ctx, a.OrganizationID, sq)
}

// searchWords splits a search into the words the full-text indexes hold: runs of letters and
// digits, lower-cased (at most 16).
func searchWords(q string) []string {
	words := strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return words[:min(len(words), 16)]
}

// InboxItem answers an item of the team, deleted or not.
func (s *Service) InboxItem(ctx context.Context, a auth.Actor, id string) (InboxItem, error) {
	return s.InboxItemOf(ctx, a.OrganizationID, id)
}

// InboxItemOf answers an item of team orgID, deleted or not (for the event stream).
func (s *Service) InboxItemOf(ctx context.Context, orgID, id string) (InboxItem, error) {
	i, err := s.db.InboxItemByID(ctx, orgID, id)
	if errors.Is(err, store.ErrNotFound) {
		return InboxItem{}, errs.NotFoundf("Inbox item")
	}
	return i, err
}

// PublicInboxItem answers an item of team orgID to anyone when it is public and not
// deleted; any other item is errs NotFound alike, so private ones are not revealed.
func (s *Service) PublicInboxItem(ctx context.Context, orgID, id string) (InboxItem, error) {
	i, err := s.db.InboxItemByID(ctx, orgID, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && (i.Visibility != store.InboxPublic || i.DeletedAt != nil)) {
		return InboxItem{}, errs.NotFoundf("Inbox item")
	}
	return i, err
}

// InboxChange is an update of an item: nil keeps a field.
type InboxChange struct {
	Priority   *int
	Visibility *string
}

// UpdateInboxItem sets the priority and/or visibility of an item of the team that is not
// deleted. With neither (spec §5) the update is skipped: nothing is written and the item is
// answered as it is. A priority outside 0–100 is errs Invalid.
func (s *Service) UpdateInboxItem(ctx context.Context, a auth.Actor, id string, c InboxChange) (InboxItem, error) {
	if c.Priority != nil && (*c.Priority < 0 || *c.Priority > 100) {
		return InboxItem{}, errs.InvalidField("body.priority", "priority must be a whole number from 0 to 100.")
	}
	var vis *store.InboxVisibility
	if c.Visibility != nil {
		v := store.InboxVisibility(*c.Visibility)
		if v != store.InboxPublic && v != store.InboxPrivate {
			return InboxItem{}, errs.InvalidField("body.visibility", "visibility must be public or private.")
		}
		vis = &v
	}
	if c.Priority == nil && vis == nil {
		i, err := s.InboxItem(ctx, a, id)
		if err == nil && i.DeletedAt != nil {
			return InboxItem{}, errs.NotFoundf("Inbox item")
		}
		return i, err
	}
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.db.UpdateInboxItem(ctx, a.OrganizationID, id, c.Priority, vis); err != nil {
			return err
		}
		return s.events.Publish(ctx, a.OrganizationID, events.InboxUpdated, id)
	})
	if errors.Is(err, store.ErrNotFound) {
		return InboxItem{}, errs.NotFoundf("Inbox item")
	}
	if err != nil {
		return InboxItem{}, err
	}
	return s.InboxItem(ctx, a, id)
}

// DeleteInboxItem deletes an item of the team softly: it leaves lists, searches and the
// public view; deleting it again is errs NotFound.
func (s *Service) DeleteInboxItem(ctx context.Context, a auth.Actor, id string) error {
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		if err := s.db.DeleteInboxItem(ctx, a.OrganizationID, id); err != nil {
			return err
		}
		return s.events.Publish(ctx, a.OrganizationID, events.InboxUpdated, id)
	})
	if errors.Is(err, store.ErrNotFound) {
		return errs.NotFoundf("Inbox item")
	}
	return err
}
