package apitest

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/bettyhq/betty/server/httpapi"
)

// SampleRequest builds a request that satisfies op's declared parameters and body: path
// parameters, required query parameters and headers, and a body with every required field.
// Values are the schema's example, default or first enum value, or a minimal valid value.
func SampleRequest(op *httpapi.Operation) Request { return SampleRequestWith(op, nil) }

// SampleRequestWith is SampleRequest with some parameters and top-level body fields set, by
// name (organizationId, teamId, id…).
func SampleRequestWith(op *httpapi.Operation, values map[string]string) Request {
	path := op.Path
	q := url.Values{}
	hdr := http.Header{}
	params := append(openapi3.Parameters{}, op.Route.PathItem.Parameters...)
	params = append(params, op.Route.Operation.Parameters...)
	for _, ref := range params {
		p := ref.Value
		if p.In != openapi3.ParameterInPath && !p.Required {
			continue
		}
		v := fmt.Sprint(sampleValue(p.Schema, 0))
		if o, ok := values[p.Name]; ok {
			v = o
		}
		switch p.In {
		case openapi3.ParameterInPath:
			path = strings.ReplaceAll(path, "{"+p.Name+"}", url.PathEscape(v))
		case openapi3.ParameterInQuery:
			q.Set(p.Name, v)
		case openapi3.ParameterInHeader:
			hdr.Set(p.Name, v)
		}
	}
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	r := Request{Method: op.Method, Path: path, Header: hdr}
	if rb := op.Route.Operation.RequestBody; rb != nil && rb.Value != nil {
		if mt := rb.Value.Content.Get("application/json"); mt != nil {
			body := sampleValue(mt.Schema, 0)
			if m, ok := body.(map[string]any); ok {
				for k, v := range values {
					if _, has := m[k]; has {
						m[k] = v
					}
				}
			}
			r.Body = body
		} else {
			for ct := range rb.Value.Content {
				hdr.Set("Content-Type", ct)
				r.Body = []byte("x")
				break
			}
		}
	}
	return r
}

func sampleValue(ref *openapi3.SchemaRef, depth int) any {
	if ref == nil || ref.Value == nil || depth > 8 {
		return "x"
	}
	s := ref.Value
	if len(s.AllOf) > 0 {
		merged := map[string]any{}
		for _, sub := range s.AllOf {
			if m, ok := sampleValue(sub, depth+1).(map[string]any); ok {
				for k, v := range m {
					merged[k] = v
				}
			}
		}
		return merged
	}
	if len(s.OneOf) > 0 {
		return sampleValue(s.OneOf[0], depth+1)
	}
	if len(s.AnyOf) > 0 {
		return sampleValue(s.AnyOf[0], depth+1)
	}
	if s.Example != nil {
		return s.Example
	}
	if len(s.Enum) > 0 {
		return s.Enum[0]
	}
	if s.Default != nil {
		return s.Default
	}
	switch {
	case s.Type.Is("object") || len(s.Properties) > 0:
		m := map[string]any{}
		names := append([]string{}, s.Required...)
		sort.Strings(names)
		for _, name := range names {
			m[name] = sampleValue(s.Properties[name], depth+1)
		}
		var optional []string
		for name := range s.Properties {
			if _, ok := m[name]; !ok {
				optional = append(optional, name)
			}
		}
		sort.Strings(optional)
		for i := 0; uint64(len(m)) < s.MinProps && i < len(optional); i++ {
			m[optional[i]] = sampleValue(s.Properties[optional[i]], depth+1)
		}
		return m
	case s.Type.Is("array"):
		n := int(s.MinItems)
		if n == 0 {
			n = 1
		}
		items := make([]any, n)
		for i := range items {
			items[i] = sampleValue(s.Items, depth+1)
		}
		return items
	case s.Type.Is("integer"), s.Type.Is("number"):
		if s.Min != nil {
			return int(*s.Min) + 1
		}
		return 1
	case s.Type.Is("boolean"):
		return true
	}
	return sampleString(s)
}

func sampleString(s *openapi3.Schema) string {
	switch s.Format {
	case "email":
		return "sample@example.com"
	case "date-time":
		return "2026-01-02T03:04:05Z"
	case "date":
		return "2026-01-02"
	case "uri", "url":
		return "https://example.com/x"
	case "uuid":
		return "0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10"
	case "byte":
		return "eA=="
	}
	v := "sample"
	if s.Pattern != "" {
		re, err := regexp.Compile(s.Pattern)
		if err == nil {
			for _, c := range []string{"sample", "+15555550100", "https://example.com/x", "09:00", "en-US", "abc123", "1"} {
				if re.MatchString(c) && uint64(len(c)) >= s.MinLength {
					return c
				}
			}
		}
	}
	for uint64(len(v)) < s.MinLength {
		v += "x"
	}
	return v
}
