package kb

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// SearchOptions are the inputs of `betty kb search`.
type SearchOptions struct {
	cmdutil.TeamOptions
	KB     string
	Query  string
	Limit  int
	Output cmdutil.Output
}

// NewCmdSearch returns `betty kb search`; runF replaces the run in tests.
func NewCmdSearch(f *cmdutil.Factory, runF func(*SearchOptions) error) *cobra.Command {
	opts := &SearchOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	cmd := &cobra.Command{
		Use:   "search <knowledge base> <question>",
		Short: "Search a knowledge base",
		Long: `Search the passages of a knowledge base's files and FAQs as an agent does during a call,
best first: the file, the page and a snippet with the words found in **bold**. The question
is read as plain words; English word forms match each other (delivering finds delivered).`,
		Example: `  betty kb search "Product manuals" "how do I descale the kettle"
  betty kb search "Product manuals" refunds --limit 10 --json`,
		Args: cmdutil.ExactArgs(2, "give the knowledge base (id or name) and the question"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.KB, opts.Query = args[0], args[1]
			if err := kbRef.Check(opts.KB); err != nil {
				return err
			}
			if err := query.Check(opts.Query); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runSearch(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.IntVarP(cmd.Flags(), &opts.Limit, "limit", "L", 5, 1, 50, "The most passages to show")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runSearch(ctx context.Context, opts *SearchOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	kb, err := resolve(ctx, c, team, opts.KB)
	if err != nil {
		return err
	}
	hits, err := c.SearchKnowledge(ctx, team, betty.KnowledgeSearch{KnowledgeBaseID: kb.Id, Query: opts.Query, Limit: opts.Limit})
	if err != nil {
		return err
	}
	if len(hits) == 0 && opts.Output.Format == "" {
		fmt.Fprintf(opts.IO.ErrOut, "Nothing in %q matches.\n", kb.Name)
		return nil
	}
	return opts.Output.Print(opts.IO, hits, func(t *cmdutil.Table) {
		t.Header("RANK", "NAME", "PAGE", "SNIPPET")
		for _, h := range hits {
			t.Row(fmt.Sprintf("%.3f", h.Rank), h.Name, pages(h.Page), strings.Join(strings.Fields(h.Snippet), " "))
		}
	})
}
