// Package api is `betty api`: any operation of the API, authenticated as the other commands
// are, for what no command does yet — as `gh api` is for GitHub.
package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// Options are the inputs of `betty api`.
type Options struct {
	cmdutil.TeamOptions

	Method    string
	Path      string
	Fields    []string
	RawFields []string
	Input     string
	Paginate  bool
	Headers   []string
}

// methods are the methods the API's operations use.
var methods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodHead}

// teamPlaceholder stands for the current team's id in the path and in --field values.
const teamPlaceholder = "{team}"

// NewCmdAPI returns `betty api`; runF replaces the run in tests.
func NewCmdAPI(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "api <method> <path>",
		Short: "Call any operation of the API",
		Long: `Send a request to the server, signed in as the other commands are (the profile, or
BETTY_SERVER and BETTY_API_KEY), and print the answer's JSON: indented on a terminal, as the
server sent it otherwise. The operations, their parameters and their answers are described in
openapi.yaml, the contract at the root of Betty's repository.

The path is the operation's, with its query string or not. {team} in it, and in --field values,
stands for the current team's id (--team for another).

Parameters given with --field and --raw-field go in the query string for GET, HEAD and DELETE,
and in a JSON body for POST, PUT and PATCH. --raw-field values are strings. --field values are
typed: true, false, null and numbers (as JSON writes them, so +14155550123 stays a string) become
JSON values, @file is the text of a file (@- standard input), anything else a string.
name[key]=value makes nested objects and name[]=value arrays. With --input the body is the
file's (- for standard input), and fields go in the query string.

--paginate follows a list's pages (meta.hasNext), asking for page 1, 2, … (from the page
given, if one is), and prints the items of every page as one JSON array.

Exit codes: 0 for a 2xx answer; otherwise the answer's body is printed, its detail goes to
stderr, and the exit code is the other commands': 4 for 401, 8 for 404, 1 for the rest.`,
		Example: `  betty api GET /v1/team/list
  betty api GET '/v1/campaigns/list?organizationId={team}' --paginate
  betty api GET /v1/agent/list/{team} -f sizePerPage=100 --paginate | jq '.[].name'
  betty api POST /v1/agent/create -F organizationId={team} -f name="Front desk"
  betty api PUT /v1/campaigns/0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b12 -F 'settings[retryAttempts]=2' -F 'settings[recordCalls]=false'
  betty api POST /v1/workflow/save --input flow.json
  betty api DELETE /v1/workflow/0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11`,
		Args: cmdutil.ExactArgs(2, "give the method and the path, such as: betty api GET /v1/team/list"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Method, opts.Path = strings.ToUpper(args[0]), args[1]
			if err := opts.check(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return run(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmd.Flags().StringArrayVarP(&opts.Fields, "field", "F", nil, "Add a typed parameter `key=value` (repeatable)")
	cmd.Flags().StringArrayVarP(&opts.RawFields, "raw-field", "f", nil, "Add a string parameter `key=value` (repeatable)")
	cmd.Flags().StringVar(&opts.Input, "input", "", "Send the body in this `file` (- for standard input)")
	cmd.Flags().BoolVar(&opts.Paginate, "paginate", false, "Fetch every page of a list and print its items as one JSON array")
	cmd.Flags().StringArrayVarP(&opts.Headers, "header", "H", nil, "Add a request header `'Name: value'` (repeatable)")
	return cmd
}

// check refuses what cannot be sent, before anything is.
func (o *Options) check() error {
	known := false
	for _, m := range methods {
		known = known || o.Method == m
	}
	if !known {
		return cmdutil.FlagErrorf("unknown method %q: want %s", o.Method, strings.Join(methods, ", "))
	}
	if strings.Contains(o.Path, "://") {
		return cmdutil.FlagErrorf("give a path such as /v1/team/list, not a URL: the server is the profile's (or BETTY_SERVER)")
	}
	if !strings.HasPrefix(o.Path, "/") {
		o.Path = "/" + o.Path
	}
	if o.Paginate && o.Method != http.MethodGet {
		return cmdutil.FlagErrorf("--paginate follows the pages of a list: use it with GET")
	}
	for _, h := range o.Headers {
		if k, _, ok := strings.Cut(h, ":"); !ok || strings.TrimSpace(k) == "" {
			return cmdutil.FlagErrorf("--header takes 'Name: value', not %q", h)
		}
	}
	return nil
}

// request is what run sends, built from the options.
type request struct {
	path   string
	query  url.Values
	header http.Header
	body   []byte
}

func (o *Options) build(ctx context.Context) (request, error) {
	r := request{header: http.Header{}}
	path, rawQuery, _ := strings.Cut(o.Path, "?")
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return r, cmdutil.FlagErrorf("the path's query string: %v", err)
	}
	var fields []field
	for _, kv := range o.RawFields {
		f, err := parseField(kv, false, o.IO.In)
		if err != nil {
			return r, err
		}
		fields = append(fields, f)
	}
	for _, kv := range o.Fields {
		f, err := parseField(kv, true, o.IO.In)
		if err != nil {
			return r, err
		}
		fields = append(fields, f)
	}
	if err := o.fillTeam(ctx, &path, q, fields); err != nil {
		return r, err
	}
	for _, h := range o.Headers {
		k, v, _ := strings.Cut(h, ":")
		r.header.Add(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	switch {
	case o.Input != "":
		if r.body, err = readInput(o.Input, o.IO.In); err != nil {
			return r, err
		}
		err = query(q, fields)
	case o.Method == http.MethodGet || o.Method == http.MethodHead || o.Method == http.MethodDelete:
		err = query(q, fields)
	case len(fields) > 0:
		var obj map[string]any
		if obj, err = body(fields); err == nil {
			r.body, err = encode(obj)
		}
	}
	r.path, r.query = path, q
	return r, err
}

// fillTeam puts the team's id where {team} stands, asking for the team only then.
func (o *Options) fillTeam(ctx context.Context, path *string, q url.Values, fields []field) error {
	used := strings.Contains(*path, teamPlaceholder)
	for _, vs := range q {
		for _, v := range vs {
			used = used || strings.Contains(v, teamPlaceholder)
		}
	}
	for _, f := range fields {
		used = used || strings.Contains(f.text, teamPlaceholder)
	}
	if !used {
		return nil
	}
	team, err := o.TeamID(ctx, o.Team)
	if err != nil {
		return err
	}
	*path = strings.ReplaceAll(*path, teamPlaceholder, url.PathEscape(team))
	for k, vs := range q {
		for i, v := range vs {
			q[k][i] = strings.ReplaceAll(v, teamPlaceholder, team)
		}
	}
	for i, f := range fields {
		fields[i].text = strings.ReplaceAll(f.text, teamPlaceholder, team)
		if s, ok := f.value.(string); ok {
			fields[i].value = strings.ReplaceAll(s, teamPlaceholder, team)
		}
	}
	return nil
}

func readInput(name string, stdin io.Reader) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(stdin)
	}
	raw, err := os.ReadFile(name)
	if err != nil {
		return nil, cmdutil.FlagErrorf("--input: cannot read %s: %v", name, err)
	}
	return raw, nil
}

func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return bytes.TrimRight(buf.Bytes(), "\n"), err
}

func run(ctx context.Context, opts *Options) error {
	r, err := opts.build(ctx)
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	if opts.Paginate {
		return paginate(ctx, opts, c, r)
	}
	resp, err := c.Request(ctx, opts.Method, target(r.path, r.query), r.header, r.body)
	if resp != nil {
		if perr := printBody(opts.IO, resp.Body); perr != nil && err == nil {
			err = perr
		}
	}
	return err
}

func target(path string, q url.Values) string {
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// page is what paginate reads of each page.
type page struct {
	Data json.RawMessage `json:"data"`
	Meta *struct {
		Page    int  `json:"page"`
		HasNext bool `json:"hasNext"`
	} `json:"meta"`
}

// paginate asks for every page from the one given (else 1) until meta.hasNext is false, and
// prints the items of all as one array. An answer that is not a page of a list is printed
// as it is.
func paginate(ctx context.Context, opts *Options, c *betty.Client, r request) error {
	n := 1
	if p := r.query.Get("page"); p != "" {
		var err error
		if n, err = strconv.Atoi(p); err != nil || n < 1 {
			return cmdutil.FlagErrorf("page %q: want a number, 1 or more", p)
		}
	}
	items := []json.RawMessage{}
	for first := true; ; first = false {
		r.query.Set("page", strconv.Itoa(n))
		resp, err := c.Request(ctx, http.MethodGet, target(r.path, r.query), r.header, nil)
		if err != nil {
			if resp != nil {
				_ = printBody(opts.IO, resp.Body)
			}
			return err
		}
		var p page
		var list []json.RawMessage
		if json.Unmarshal(resp.Body, &p) != nil || p.Meta == nil || json.Unmarshal(p.Data, &list) != nil {
			if first {
				return printBody(opts.IO, resp.Body)
			}
			return fmt.Errorf("page %d of %s is not a page of a list", n, r.path)
		}
		items = append(items, list...)
		// A page past the last is answered with the last: stop rather than read it again.
		if !p.Meta.HasNext || p.Meta.Page < n {
			break
		}
		n++
	}
	raw, err := encode(items)
	if err != nil {
		return err
	}
	return printBody(opts.IO, raw)
}

// printBody writes an answer's body: JSON indented on a terminal and as sent otherwise, with
// a final newline; nothing for an empty body.
func printBody(s *cmdutil.IOStreams, raw []byte) error {
	if len(raw) == 0 {
		return nil
	}
	if s.StdoutTTY && json.Valid(raw) {
		var buf bytes.Buffer
		if err := json.Indent(&buf, raw, "", "  "); err == nil {
			raw = buf.Bytes()
		}
	}
	if _, err := s.Out.Write(raw); err != nil {
		return err
	}
	if !bytes.HasSuffix(raw, []byte("\n")) {
		_, err := io.WriteString(s.Out, "\n")
		return err
	}
	return nil
}
