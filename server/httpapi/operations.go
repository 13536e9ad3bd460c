package httpapi

import (
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"

	"github.com/bettyhq/betty/server/api"
)

// Operation is one operation of the contract as the server sees it.
type Operation struct {
	ID     string
	Method string
	// Path is the OpenAPI path (/v1/agent/{id}); EchoPath the same in Echo's syntax.
	Path     string
	EchoPath string
	Tag      string
	// Public operations declare `security: []`.
	Public bool
	Route  *routers.Route
}

// Operations indexes the contract's operations by method and Echo path (what c.Path()
// returns after routing), so middleware knows which operation a request is for without a
// second router.
type Operations struct {
	Spec  *openapi3.T
	byKey map[string]*Operation
	all   []*Operation
	// paths match a request path to the contract's path templates, to tell 405 from 404.
	paths map[string]*regexp.Regexp
}

// HasPath says whether some operation of the contract lives at this request path (with any
// method).
func (o *Operations) HasPath(path string) bool {
	for _, re := range o.paths {
		if re.MatchString(path) {
			return true
		}
	}
	return false
}

var pathParam = regexp.MustCompile(`\{([^}]+)\}`)

// LoadOperations reads the embedded contract, once per process: it is read-only afterwards
// and parsing it costs tens of milliseconds (every test server would pay it).
func LoadOperations() (*Operations, error) { return loadOperations() }

var loadOperations = sync.OnceValues(parseOperations)

func parseOperations() (*Operations, error) {
	spec, err := api.GetSpec()
	if err != nil {
		return nil, err
	}
	// Servers would make validation match only those hosts.
	spec.Servers = nil
	ops := &Operations{Spec: spec, byKey: map[string]*Operation{}, paths: map[string]*regexp.Regexp{}}
	for path, item := range spec.Paths.Map() {
		for method, op := range item.Operations() {
			o := &Operation{
				// The embedded spec carries oapi-codegen's Go names (GetHealth); the contract's
				// ids are lowerCamelCase (getHealth), which spectral enforces.
				ID:       strings.ToLower(op.OperationID[:1]) + op.OperationID[1:],
				Method:   method,
				Path:     path,
				EchoPath: pathParam.ReplaceAllString(path, ":$1"),
				Public:   op.Security != nil && len(*op.Security) == 0,
				Route:    &routers.Route{Spec: spec, Path: path, PathItem: item, Method: method, Operation: op},
			}
			if len(op.Tags) > 0 {
				o.Tag = op.Tags[0]
			}
			ops.byKey[method+" "+o.EchoPath] = o
			ops.paths[path] = pathRegexp(path)
			ops.all = append(ops.all, o)
		}
	}
	sort.Slice(ops.all, func(i, j int) bool { return ops.all[i].ID < ops.all[j].ID })
	return ops, nil
}

// Find returns the operation Echo routed a request to, or nil. A HEAD request without a HEAD
// operation is the GET operation (Echo answers HEAD with the GET handler).
func (o *Operations) Find(method, echoPath string) *Operation {
	if op := o.byKey[method+" "+echoPath]; op != nil {
		return op
	}
	if method == http.MethodHead {
		return o.byKey[http.MethodGet+" "+echoPath]
	}
	return nil
}

// All lists every operation, sorted by id.
func (o *Operations) All() []*Operation { return o.all }

// pathRegexp matches request paths against an OpenAPI path template.
func pathRegexp(path string) *regexp.Regexp {
	parts := pathParam.Split(path, -1)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, "[^/]+") + "$")
}
