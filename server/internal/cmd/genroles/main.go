// Command genroles writes the access matrix of docs/roles.md from auth.Policy and the
// contract, between the markers it finds there, so the page cannot drift from the code. Run by
// `make generate`; `make test` fails when the committed page differs.
//
// usage: genroles docs/roles.md
package main

import (
	"bytes"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/httpapi"
)

const (
	begin = "<!-- BEGIN GENERATED: genroles -->"
	end   = "<!-- END GENERATED: genroles -->"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: genroles docs/roles.md")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "genroles:", err)
		os.Exit(1)
	}
}

func run(path string) error {
	page, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	i, j := bytes.Index(page, []byte(begin)), bytes.Index(page, []byte(end))
	if i < 0 || j < i {
		return fmt.Errorf("%s has no %s … %s markers", path, begin, end)
	}
	ops, err := httpapi.LoadOperations()
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString(begin + "\n")
	b.WriteString("_Generated from `auth.Policy` and `openapi.yaml` by `make generate`; do not edit by hand._\n\n")
	byTag := map[string][]*httpapi.Operation{}
	var tags []string
	for _, op := range ops.All() {
		if _, ok := byTag[op.Tag]; !ok {
			tags = append(tags, op.Tag)
		}
		byTag[op.Tag] = append(byTag[op.Tag], op)
	}
	sort.Strings(tags)
	var refuse []string
	for _, tag := range tags {
		fmt.Fprintf(&b, "### %s\n\n| operation | request | who may call it | API keys | team from |\n|---|---|---|---|---|\n", tag)
		for _, op := range byTag[tag] {
			rule := auth.Policy[op.ID]
			who, keys, from := describe(rule)
			if keys == "no" {
				refuse = append(refuse, "`"+op.ID+"`")
			}
			fmt.Fprintf(&b, "| `%s` | `%s %s` | %s | %s | %s |\n", op.ID, op.Method, op.Path, who, keys, from)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "API keys are refused (403) by %d operations: %s.\n", len(refuse), strings.Join(refuse, ", "))
	b.WriteString(end)
	out := append(append(append([]byte{}, page[:i]...), b.String()...), page[j+len(end):]...)
	if bytes.Equal(out, page) {
		return nil
	}
	return os.WriteFile(path, out, 0o644)
}

// describe says, in the page's words, who may call an operation, whether API keys may, and
// where its team comes from.
func describe(r auth.Rule) (who, keys, from string) {
	keys, from = "yes", "—"
	switch r.Access {
	case auth.Public:
		return "anyone (public)", "—", "—"
	case auth.Refresh:
		return "the holder of a refresh token", "—", "—"
	case auth.User:
		return "a signed-in user", "no", "—"
	case auth.Any:
		return "a signed-in user or an API key", "yes", "—"
	case auth.SiteAdmin:
		return "a site administrator", "no", "—"
	}
	who = string(r.MinRole) + " or higher"
	if r.MinRole == auth.Owner {
		who = "the owner"
	}
	if r.UsersOnly {
		keys = "no"
	}
	from = map[auth.OrgFrom]string{
		auth.FromQuery: "query `organizationId`", auth.FromBody: "body `organizationId`", auth.FromPathTeam: "path `teamId`",
		auth.FromPathID: "path `id`", auth.FromPathOrg: "path `organizationId`", auth.FromBodyID: "body `id`",
		auth.FromKey: "the API key's team", auth.FromMetadata: "`organizationId` of `Upload-Metadata`",
	}[r.Org]
	if r.Org == auth.FromResource {
		from = resource(r.Resource)
	}
	return who, keys, from
}

// resource says which resource's team an operation acts in: "the workflow (path `id`)".
func resource(r auth.Resource) string {
	at := func(s auth.Source) string { return fmt.Sprintf("%s `%s`", s.In, s.Name) }
	if r.List {
		return fmt.Sprintf("each %s of %s", r.Kind, at(r.ID))
	}
	out := fmt.Sprintf("the %s (%s)", r.Kind, at(r.ID))
	if !r.Container.IsZero() {
		out += fmt.Sprintf(", in the %s of %s when sent", r.ContainerKind, at(r.Container))
	}
	return out
}
