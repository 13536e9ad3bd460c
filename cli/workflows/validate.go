package workflows

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/server/workflow"
)

// ValidateOptions are the inputs of `betty workflow validate`.
type ValidateOptions struct {
	IO *cmdutil.IOStreams

	Path string
}

// errInvalid is the exit of a graph with violations (1, like a refused request).
var errInvalid = fmt.Errorf("the graph is not runnable")

// NewCmdValidate returns `betty workflow validate`; runF replaces the run in tests.
func NewCmdValidate(f *cmdutil.Factory, runF func(*ValidateOptions) error) *cobra.Command {
	opts := &ValidateOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "validate <file>",
		Short: "Check a graph file with the server's rules",
		Long: `Check a YAML or JSON graph file ("-" reads standard input) without a server, with the
rules the server applies (the same code): what a save would refuse, what it would normalise,
and what stops the flow from running (every path ends in End Call or Forward Call, a Forward
Call has a valid E.164 number, a webhook an http(s) URL and a method, no loop that skips the
customer…). Prints each violation with its node; exits 1 when there is any.

Also warns, without failing, about the Agent, End Call and Forward Call steps that have no
spoken line ("say"): on a server without a language model (--llm-url unset) they say a
neutral line built from their label instead.`,
		Example: `  betty workflow validate flow.yaml
  betty workflow export 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 | betty workflow validate -`,
		Args: cmdutil.ExactArgs(1, "give the graph file to check (YAML or JSON)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runValidate(opts)
		},
	}
	return cmd
}

func runValidate(opts *ValidateOptions) error {
	f, raw, err := readFile(opts.IO, opts.Path)
	if err != nil {
		return err
	}
	g, err := workflow.Parse(raw)
	if err != nil {
		return fmt.Errorf("%s is not a workflow graph: %v", opts.Path, err)
	}
	typ := workflow.Type(f.WorkflowType)
	if typ == "" {
		typ = workflow.Outbound
	}
	labels := map[string]string{}
	for _, n := range g.Nodes {
		labels[n.ID] = string(n.Type)
		if l := n.Data.String(workflow.FieldNodeLabel); l != "" {
			labels[n.ID] += fmt.Sprintf(" %q", l)
		}
	}
	out := opts.IO.Out
	norm, changes, refused := workflow.Prepare(g, typ)
	if len(refused) > 0 {
		fmt.Fprintf(out, "A save would be refused (%d):\n", len(refused))
		for _, v := range refused {
			fmt.Fprintf(out, "  - %s%s: %s\n", v.Field, nodeLabel(labels, v.Field), v.Message)
		}
		return errInvalid
	}
	for _, ch := range changes {
		what := ch.NodeID
		if what == "" {
			what = "edge " + ch.EdgeID
		}
		fmt.Fprintf(out, "normalised: %s (%s)\n", ch.Rule, what)
	}
	problems := workflow.Validate(norm, typ)
	if len(problems) == 0 {
		fmt.Fprintf(out, "%s: runnable (%d nodes, %d edges).\n", opts.Path, len(norm.Nodes), len(norm.Edges))
	} else {
		fmt.Fprintf(out, "Not runnable (%d):\n", len(problems))
		for _, v := range problems {
			fmt.Fprintf(out, "  - %s%s: %s\n", v.Field, nodeLabel(labels, v.Field), v.Message)
		}
	}
	if generic := workflow.Generic(norm); len(generic) > 0 {
		fmt.Fprintf(out, "Will sound generic without a language model (%d):\n", len(generic))
		for _, v := range generic {
			fmt.Fprintf(out, "  - %s%s: %s\n", v.Field, nodeLabel(labels, v.Field), v.Message)
		}
	}
	if len(problems) > 0 {
		return errInvalid
	}
	return nil
}

// nodeLabel says which node a field names: its kind and label.
func nodeLabel(labels map[string]string, field string) string {
	for id, l := range labels {
		if len(field) >= len(id)+7 && field[:7+len(id)] == "nodes["+id+"]" {
			return " (" + l + ")"
		}
	}
	return ""
}
