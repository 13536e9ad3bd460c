package betty_test

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/bettyhq/betty/sdk/client"
	"github.com/bettyhq/betty/server/httpapi"
)

// The SDK's examples and documentation, and the README's snippet, call only operations the
// server has built: an example of an operation that answers 501 teaches nothing.
func TestExamplesUseBuiltOperations(t *testing.T) {
	built := builtOperations()
	if len(built) == 0 {
		t.Fatal("found no built operation in httpapi.Server")
	}
	calls := regexp.MustCompile(`\bapi\.([A-Z]\w*)\(`)
	for _, file := range []string{"example_test.go", "doc.go", "do.go", "examples/campaign/main.go", "../README.md"} {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		text := string(raw)
		if file == "../README.md" {
			text = section(text, "## The CLI and the SDK")
		}
		found := calls.FindAllStringSubmatch(text, -1)
		if len(found) == 0 {
			t.Errorf("%s calls no operation: is the pattern still right?", file)
		}
		for _, m := range found {
			op := m[1]
			if _, ok := reflect.TypeFor[*client.Client]().MethodByName(op); !ok {
				t.Errorf("%s: %s is not an operation of the client", file, op)
			} else if !built[op] {
				t.Errorf("%s: %s is not built on the server yet (it answers 501)", file, op)
			}
		}
	}
}

// builtOperations are the operations whose handlers the server has: the methods of the handler
// types httpapi.Server embeds, except the fallback that answers 501 for the rest.
func builtOperations() map[string]bool {
	built := map[string]bool{}
	server := reflect.TypeFor[httpapi.Server]()
	for i := range server.NumField() {
		f := server.Field(i)
		if !f.Anonymous || !f.IsExported() {
			continue // the unexported fallback of 501s
		}
		for j := range f.Type.NumMethod() {
			built[f.Type.Method(j).Name] = true
		}
	}
	return built
}

// section is the part of a Markdown document under heading, up to the next heading of its level.
func section(doc, heading string) string {
	_, rest, _ := strings.Cut(doc, heading+"\n")
	if end := strings.Index(rest, "\n## "); end >= 0 {
		rest = rest[:end]
	}
	return rest
}
