package api

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"regexp"
	"strings"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// A field is one --field or --raw-field: a key, perhaps nested (settings[timezone]) or an
// array's (days[]), and its value.
type field struct {
	path  []string // settings[callWindow][start] → settings, callWindow, start
	array bool     // days[]: the value is appended
	value any      // what a body holds
	text  string   // what a query string holds: the text typed, or the file read
}

// jsonNumber is a number as JSON writes it: no leading +, no leading zeros, so E.164 phone
// numbers (+14155550123) and codes like 007 stay strings.
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// keyPattern is a key with optional [sub] parts and an optional trailing [].
var keyPattern = regexp.MustCompile(`^([^\[\]]+)((?:\[[^\[\]]+\])*)(\[\])?$`)

// parseField reads kv as --field (typed) or --raw-field (a string). A typed value is true,
// false, null, a number, @file (the file's text; @- standard input), and any other text a
// string.
func parseField(kv string, typed bool, stdin io.Reader) (field, error) {
	flag := "--raw-field"
	if typed {
		flag = "--field"
	}
	k, v, ok := strings.Cut(kv, "=")
	if !ok {
		return field{}, cmdutil.FlagErrorf("%s takes key=value, not %q", flag, kv)
	}
	m := keyPattern.FindStringSubmatch(k)
	if m == nil {
		return field{}, cmdutil.FlagErrorf("%s key %q: want name, name[key]… or name[]", flag, k)
	}
	f := field{path: []string{m[1]}, array: m[3] != ""}
	if m[2] != "" {
		for _, part := range strings.Split(strings.Trim(m[2], "[]"), "][") {
			f.path = append(f.path, part)
		}
	}
	f.text = v
	if !typed {
		f.value = v
		return f, nil
	}
	switch {
	case v == "true":
		f.value = true
	case v == "false":
		f.value = false
	case v == "null":
		f.value = nil
	case jsonNumber.MatchString(v):
		f.value = json.Number(v)
	case strings.HasPrefix(v, "@"):
		text, err := readValue(v[1:], stdin)
		if err != nil {
			return field{}, cmdutil.FlagErrorf("--field %s: %v", k, err)
		}
		f.value, f.text = text, text
	default:
		f.value = v
	}
	return f, nil
}

func readValue(name string, stdin io.Reader) (string, error) {
	var raw []byte
	var err error
	if name == "-" {
		raw, err = io.ReadAll(stdin)
	} else {
		raw, err = os.ReadFile(name)
	}
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %v", name, err)
	}
	return string(raw), nil
}

// body builds the JSON object the fields describe.
func body(fields []field) (map[string]any, error) {
	root := map[string]any{}
	for _, f := range fields {
		obj := root
		for i, key := range f.path[:len(f.path)-1] {
			next, ok := obj[key].(map[string]any)
			if !ok {
				if _, taken := obj[key]; taken {
					return nil, cmdutil.FlagErrorf("field %s is both a value and an object", strings.Join(f.path[:i+1], "."))
				}
				next = map[string]any{}
				obj[key] = next
			}
			obj = next
		}
		last := f.path[len(f.path)-1]
		if !f.array {
			if _, taken := obj[last]; taken {
				return nil, cmdutil.FlagErrorf("field %s is given twice (name[] makes an array)", strings.Join(f.path, "."))
			}
			obj[last] = f.value
			continue
		}
		list, ok := obj[last].([]any)
		if _, taken := obj[last]; taken && !ok {
			return nil, cmdutil.FlagErrorf("field %s is both a value and an array", strings.Join(f.path, "."))
		}
		obj[last] = append(list, f.value)
	}
	return root, nil
}

// query adds the fields to q: name[]=a name[]=b as name=a&name=b. An object has no place in
// a query string.
func query(q url.Values, fields []field) error {
	for _, f := range fields {
		if len(f.path) > 1 {
			return cmdutil.FlagErrorf("field %s: a query parameter cannot be an object (send a body with POST, PUT or PATCH)", strings.Join(f.path, "."))
		}
		q.Add(f.path[0], f.text)
	}
	return nil
}
