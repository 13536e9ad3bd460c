package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/labstack/echo/v4"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/problem"
)

// emailPattern is the product's e-mail rule (spec section 5): a local part of letters, digits
// and ._%+-, a domain, and a TLD of two or more letters, case-insensitive.
var emailPattern = regexp.MustCompile(`(?i)^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$`)

func init() {
	openapi3.DefineStringFormatValidator("email", openapi3.NewRegexpFormatValidator(emailPattern.String()))
	openapi3filter.RegisterBodyDecoder("application/offset+octet-stream", openapi3filter.FileBodyDecoder)
}

// missingMessages are the messages the product names for particular missing fields (spec
// section 8), by operation and field. Other missing fields read "<name> is required", which
// is already the product's wording for organizationId, name, id and connectedAppId.
var missingMessages = map[string]string{
	"createCampaign body.organizationId":              "Organization ID is required to create a campaign",
	"createKnowledgeBase body.name":                   "Missing name or organizationId",
	"createKnowledgeBase body.organizationId":         "Missing name or organizationId",
	"listJobStatuses query.ids":                       "At least one jobId is required",
	"setWorkflowContacts body.nodeId":                 "Node id is required",
	"listWorkflowContacts query.nodeId":               "Node id is required",
	"deleteWorkflowContacts query.nodeId":             "Node id is required",
	"updateWorkflow query.workflowId":                 "Missing workflow id",
	"saveWorkflow body.workflowId":                    "Missing workflow id",
	"runWorkflow body.organizationId":                 "Missing organization id",
	"listConnectedApps query.organizationId":          "Organization id is required",
	"completeZapierAuthorization body.code":           "Missing code or teamId",
	"completeZapierAuthorization body.organizationId": "Missing code or teamId",
	"listZapierTemplates query.organizationId":        "Missing teamId",
	"listZapierZaps query.organizationId":             "Missing teamId",
	"disconnectZapierApp body.organizationId":         "Missing teamId",
	"testRunWorkflow body.customerDescription":        "missing required properties",
	"testRunWorkflow body.destinationPhoneNumber":     "missing required properties",
	"testRunWorkflow body.isTestWorkflow":             "missing required properties",
	"testRunWorkflow body.nameOrEmail":                "missing required properties",
	"testRunWorkflow body.organizationId":             "missing required properties",
	"testRunWorkflow body.triggeredBy":                "missing required properties",
	"testRunWorkflow body.workflowId":                 "missing required properties",
}

// validateRequests checks every request to an operation of the contract against it: path,
// query, headers and body. A failure is a 400 problem naming each field. Requests Echo routed
// elsewhere (the dashboard) pass through.
func validateRequests(ops *Operations) echo.MiddlewareFunc {
	opts := &openapi3filter.Options{
		MultiError:         true,
		AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, // authentication is ours
	}
	// A streamed body (a tus chunk, up to 64 MiB) is read by its handler as it arrives, never
	// whole by the validator; tusProtocol checked its content type.
	streamed := *opts
	streamed.ExcludeRequestBody = true
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			op := ops.Find(c.Request().Method, c.Path())
			if op == nil {
				return next(c)
			}
			params := pathParams(c)
			if err := refuseNUL(params, c.Request().URL.Query()); err != nil {
				return err
			}
			if err := checkJSONBody(c.Request()); err != nil {
				return err
			}
			in := &openapi3filter.RequestValidationInput{
				Request:    c.Request(),
				PathParams: params,
				Route:      op.Route,
				Options:    opts,
			}
			if streamedBody(op) {
				// The validator sees no body at all: its security check reads any body whole.
				in.Request = c.Request().WithContext(c.Request().Context())
				in.Request.Body, in.Request.GetBody = http.NoBody, nil
				in.Options = &streamed
			}
			if err := openapi3filter.ValidateRequest(c.Request().Context(), in); err != nil {
				return requestProblem(op.ID, err)
			}
			return next(c)
		}
	}
}

// streamedBody says whether an operation's body is a stream of bytes its handler reads as it
// arrives (a tus chunk) rather than a document to check first.
func streamedBody(op *Operation) bool {
	rb := op.Route.Operation.RequestBody
	return rb != nil && rb.Value != nil && rb.Value.Content["application/offset+octet-stream"] != nil
}

// pathParams are the request's path parameters, decoded: Echo hands them still
// percent-encoded (u%40example.com), and the contract's formats apply to the decoded value
// the handler receives.
func pathParams(c echo.Context) map[string]string {
	params := make(map[string]string, len(c.ParamNames()))
	for i, name := range c.ParamNames() {
		v := c.ParamValues()[i]
		if d, err := url.PathUnescape(v); err == nil {
			v = d
		}
		params[name] = v
	}
	return params
}

// checkJSONBody reads a JSON request body whole (within the size and time limits set by
// limitBodies) and refuses what Go's decoder would quietly accept: data after the JSON value
// ({"name":"x"}garbage) and bytes that are not UTF-8 (stored as replacement characters
// otherwise). The body is put back for the validator and the handler.
func checkJSONBody(r *http.Request) error {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct != "application/json" && !strings.HasSuffix(ct, "+json") {
		return nil
	}
	raw, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(raw))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return tooLarge(tooBig.Limit)
	case isTimeout(err):
		return requestTimeout(err)
	case err != nil:
		return problem.Wrap(err, http.StatusBadRequest, api.ProblemCodeBadRequest, "The request body could not be read.")
	case len(bytes.TrimSpace(raw)) == 0:
		return nil // the validator says whether a body is required
	case !utf8.Valid(raw):
		return malformed("The request body is not valid UTF-8.", nil)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return malformed("The request body is not valid JSON.", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return malformed("The request body has data after the JSON value.", err)
	}
	if field := nulIn(v, "body"); field != "" {
		return problem.Validation(problem.Field(field, nulMessage(field)))
	}
	return nil
}

// refuseNUL refuses NUL characters in path and query parameters: no text Betty keeps may hold
// one (PostgreSQL cannot store it; nothing legitimate needs it).
func refuseNUL(path map[string]string, query url.Values) error {
	var fields []api.FieldError
	for name, v := range path {
		if strings.ContainsRune(v, 0) {
			fields = append(fields, problem.Field("path."+name, nulMessage(name)))
		}
	}
	for name, vs := range query {
		for _, v := range vs {
			if strings.ContainsRune(v, 0) || strings.ContainsRune(name, 0) {
				fields = append(fields, problem.Field("query."+name, nulMessage(name)))
				break
			}
		}
	}
	if len(fields) == 0 {
		return nil
	}
	sort.Slice(fields, func(i, j int) bool { return fields[i].Field < fields[j].Field })
	return problem.Validation(fields...)
}

// nulIn answers the path of the first string (or key) of a decoded JSON value that holds a NUL
// character, or "".
func nulIn(v any, path string) string {
	switch t := v.(type) {
	case string:
		if strings.ContainsRune(t, 0) {
			return path
		}
	case []any:
		for i, e := range t {
			if f := nulIn(e, fmt.Sprintf("%s[%d]", path, i)); f != "" {
				return f
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if strings.ContainsRune(k, 0) {
				return path
			}
			if f := nulIn(t[k], path+"."+k); f != "" {
				return f
			}
		}
	}
	return ""
}

func nulMessage(field string) string {
	if i := strings.LastIndexByte(field, '.'); i >= 0 {
		field = field[i+1:]
	}
	return field + " must not contain NUL characters"
}

func malformed(detail string, cause error) *problem.Error {
	return &problem.Error{Status: http.StatusBadRequest, Code: api.ProblemCodeMalformedJson, Detail: detail,
		Fields: []api.FieldError{problem.Field("body", detail)}, Err: cause}
}

// requestProblem turns kin-openapi's validation errors into one problem with a field list.
func requestProblem(opID string, err error) *problem.Error {
	var fields []api.FieldError
	var tooBig *http.MaxBytesError
	for _, e := range flatten(err) {
		var re *openapi3filter.RequestError
		switch {
		case errors.As(e, &tooBig):
			return tooLarge(tooBig.Limit)
		case errors.As(e, &re):
			if p := malformedBody(re); p != nil {
				return p
			}
			fields = append(fields, requestFieldErrors(re)...)
		default:
			var se *openapi3filter.SecurityRequirementsError
			if errors.As(e, &se) {
				continue
			}
			fields = append(fields, problem.Field("request", "The request is not valid."))
		}
	}
	for i := range fields {
		if msg, ok := missingMessages[opID+" "+fields[i].Field]; ok && strings.HasSuffix(fields[i].Message, " is required") {
			fields[i].Message = msg
		}
	}
	sort.SliceStable(fields, func(i, j int) bool { return fields[i].Field < fields[j].Field })
	return problem.Validation(fields...)
}

// flatten unpacks kin-openapi's MultiErrors (only at the top: a RequestError wrapping a
// MultiError stays whole, so its parameter or body is kept).
func flatten(err error) []error {
	if me, ok := err.(openapi3.MultiError); ok {
		var out []error
		for _, e := range me {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}

func malformedBody(re *openapi3filter.RequestError) *problem.Error {
	if re.RequestBody == nil {
		return nil
	}
	var pe *openapi3filter.ParseError
	if errors.As(re.Err, &pe) || errors.Is(re.Err, io.ErrUnexpectedEOF) {
		return malformed("The request body is not valid JSON.", re.Err)
	}
	if strings.Contains(re.Reason, "header Content-Type has unexpected value") {
		return problem.New(http.StatusUnsupportedMediaType, api.ProblemCodeUnsupportedMediaType,
			"This content type is not supported here.")
	}
	return nil
}

func requestFieldErrors(re *openapi3filter.RequestError) []api.FieldError {
	prefix, name := "body", ""
	if re.Parameter != nil {
		prefix, name = re.Parameter.In, re.Parameter.Name
	}
	var out []api.FieldError
	for _, e := range flatten(re.Err) {
		var se *openapi3.SchemaError
		if errors.As(e, &se) {
			out = append(out, schemaFieldError(prefix, name, se))
		}
	}
	if len(out) > 0 {
		return out
	}
	field := joinField(prefix, name)
	switch {
	case errors.Is(re.Err, openapi3filter.ErrInvalidRequired), strings.Contains(re.Reason, "must have a value"),
		strings.Contains(re.Reason, "value is required"):
		return []api.FieldError{problem.Field(field, displayName(prefix, name)+" is required")}
	case re.Parameter != nil:
		return []api.FieldError{problem.Field(field, displayName(prefix, name)+" is not valid: "+reason(re))}
	}
	return []api.FieldError{problem.Field(field, reason(re))}
}

var missingProperty = regexp.MustCompile(`^property "([^"]+)" is missing$`)
var unsupportedProperty = regexp.MustCompile(`^property "([^"]+)" is unsupported$`)

func schemaFieldError(prefix, name string, se *openapi3.SchemaError) api.FieldError {
	path := se.JSONPointer()
	leaf := name
	if len(path) > 0 {
		leaf = path[len(path)-1]
	}
	field := joinField(prefix, name, path...)
	switch {
	case missingProperty.MatchString(se.Reason):
		return problem.Field(field, leaf+" is required")
	case unsupportedProperty.MatchString(se.Reason):
		extra := unsupportedProperty.FindStringSubmatch(se.Reason)[1]
		return problem.Field(joinField(prefix, name, append(path, extra)...), extra+" is not a known field")
	case se.SchemaField == "enum":
		var vals []string
		for _, v := range se.Schema.Enum {
			vals = append(vals, fmt.Sprint(v))
		}
		return problem.Field(field, leaf+" must be one of: "+strings.Join(vals, ", "))
	case se.SchemaField == "type":
		return problem.Field(field, leaf+" must be "+article(se.Schema.Type.Slice()))
	case prefix == "path" && se.SchemaField == "pattern" && isRecordID(se.Schema):
		// A path id of the wrong shape names itself and the value, rather than a 404 that
		// reads as if a real record were missing.
		return problem.Field(field, fmt.Sprintf("%s: %q is not a valid id", name, fmt.Sprint(se.Value)))
	case se.SchemaField == "pattern", se.SchemaField == "format":
		return problem.Field(field, leaf+" is not in the expected format")
	case se.SchemaField == "nullable":
		return problem.Field(field, leaf+" must not be null")
	case se.SchemaField == "minLength":
		return problem.Field(field, fmt.Sprintf("%s must have at least %d characters", leaf, se.Schema.MinLength))
	case se.SchemaField == "maxLength" && se.Schema.MaxLength != nil:
		return problem.Field(field, fmt.Sprintf("%s must have at most %d characters", leaf, *se.Schema.MaxLength))
	case se.SchemaField == "minimum" && se.Schema.Min != nil:
		return problem.Field(field, fmt.Sprintf("%s must be at least %v", leaf, *se.Schema.Min))
	case se.SchemaField == "maximum" && se.Schema.Max != nil:
		return problem.Field(field, fmt.Sprintf("%s must be at most %v", leaf, *se.Schema.Max))
	case se.SchemaField == "minItems":
		return problem.Field(field, fmt.Sprintf("%s must have at least %d items", leaf, se.Schema.MinItems))
	case se.SchemaField == "maxItems" && se.Schema.MaxItems != nil:
		return problem.Field(field, fmt.Sprintf("%s must have at most %d items", leaf, *se.Schema.MaxItems))
	}
	if leaf == "" {
		leaf = prefix
	}
	return problem.Field(field, leaf+": "+se.Reason)
}

// isRecordID says whether a schema is the contract's RecordId (the ids Betty makes), which
// carries the extension x-betty-record-id.
func isRecordID(s *openapi3.Schema) bool {
	return s != nil && s.Extensions["x-betty-record-id"] == true
}

func article(types []string) string {
	if len(types) == 0 {
		return "of another type"
	}
	t := types[0]
	switch t {
	case "integer", "array", "object":
		return "an " + t
	}
	return "a " + t
}

func joinField(prefix, name string, path ...string) string {
	parts := []string{prefix}
	if name != "" {
		parts = append(parts, name)
	}
	parts = append(parts, path...)
	return strings.Join(parts, ".")
}

func displayName(prefix, name string) string {
	if name == "" {
		return prefix
	}
	return name
}

func reason(re *openapi3filter.RequestError) string {
	if re.Err != nil {
		return re.Err.Error()
	}
	return re.Reason
}
