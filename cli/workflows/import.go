package workflows

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// ImportOptions are the inputs of `betty workflow import`.
type ImportOptions struct {
	cmdutil.TeamOptions
	Path  string
	Into  string
	Agent string
	Force bool
}

// NewCmdImport returns `betty workflow import`; runF replaces the run in tests.
func NewCmdImport(f *cmdutil.Factory, runF func(*ImportOptions) error) *cobra.Command {
	opts := &ImportOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "import <file>",
		Short: "Save a graph file into a workflow",
		Long: `Save the nodes and edges (and the postCallFields, when the file has them: what the
post-call analysis reads from each call) of a YAML or JSON graph file ("-" reads standard input) into
the workflow the file names (its workflowId, as export writes it) or --into. The save applies
only if the workflow is still at the file's version: a workflow changed since the export is
refused (exit 1) unless --force. A file without a workflow creates one, named and typed as
the file says, spoken by --agent. The server normalises the graph (and says what it changed)
and refuses one that breaks a rule, naming each node. Prints the workflow's id.`,
		Example: `  betty workflow import flow.yaml
  betty workflow import flow.json --into 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 --force
  betty workflow import new-flow.yaml --agent 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10`,
		Args: cmdutil.ExactArgs(1, "give the graph file to import (YAML or JSON)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runImport(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.ID.Var(cmd.Flags(), &opts.Into, "into", "Save into this workflow `id` instead of the file's")
	cmdutil.ID.Var(cmd.Flags(), &opts.Agent, "agent", "For a new workflow: the agent `id` that speaks in it")
	cmd.Flags().BoolVar(&opts.Force, "force", false, "Save even if the workflow changed since the file's version")
	return cmd
}

func runImport(ctx context.Context, opts *ImportOptions) error {
	f, _, err := readFile(opts.IO, opts.Path)
	if err != nil {
		return err
	}
	id := f.WorkflowID
	if opts.Into != "" {
		id = opts.Into
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	version := f.Version
	if opts.Force || opts.Into != "" && opts.Into != f.WorkflowID {
		version = 0
	}
	if id == "" {
		if opts.Agent == "" || f.Name == "" || f.WorkflowType == "" {
			return cmdutil.FlagErrorf("%s names no workflow: give --into <id>, or --agent <id> with name and workflowType in the file to create one", opts.Path)
		}
		team, err := opts.TeamID(ctx, opts.Team)
		if err != nil {
			return err
		}
		w, err := c.CreateWorkflow(ctx, team, betty.WorkflowInput{Name: f.Name, AgentID: opts.Agent, Type: f.WorkflowType})
		if err != nil {
			return err
		}
		fmt.Fprintf(opts.IO.ErrOut, "Created workflow %q.\n", w.Name)
		id, version = w.Id, w.Version
	}
	w, err := c.SaveWorkflow(ctx, id, betty.Graph{Nodes: f.Nodes, Edges: f.Edges, PostCallFields: f.PostCallFields}, version)
	var apiErr *betty.APIError
	if errors.Is(err, betty.ErrConflict) && errors.As(err, &apiErr) && apiErr.CurrentVersion > 0 {
		return cmdutil.WithHint(err, fmt.Sprintf("the workflow is at version %d, the file at %d: export it again, or import with --force to overwrite it", apiErr.CurrentVersion, f.Version))
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Saved %q at version %d.\n", w.Name, w.Version)
	if w.Normalization != nil {
		for _, ch := range *w.Normalization {
			fmt.Fprintf(opts.IO.ErrOut, "  normalised: %s %s%s\n", ch.Rule, cmdutil.Str(ch.NodeId), cmdutil.Str(ch.EdgeId))
		}
	}
	printProblems(opts.IO, w.Problems)
	printWarnings(opts.IO, w.Warnings)
	_, err = fmt.Fprintln(opts.IO.Out, w.Id)
	return err
}
