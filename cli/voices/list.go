package voices

import (
	"context"
	"net/http"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// ListOptions are the inputs of `betty voices list`.
type ListOptions struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)

	Team   string
	Limit  int
	Output cmdutil.Output
}

// NewCmdList returns `betty voices list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{IO: f.IO, Client: f.Client, TeamID: f.TeamID}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List a team's custom voices",
		Long: `List the custom voice profiles of a team, newest first, with the preset each speaks
with on this server (SPEAKS WITH). Any member of the team may do this; presets are listed by
betty voices presets.`,
		Example: `  betty voices list
  betty voices list --team 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --json`,
		Aliases: []string{"ls"},
		Args:    cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runList(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddLimitFlag(cmd, &opts.Limit)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	team, err := opts.TeamID(ctx, opts.Team)
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	size := cmdutil.PageSize(opts.Limit)
	profiles, err := cmdutil.Collect(betty.All[client.VoiceProfile](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.ListVoiceProfiles(ctx, team, &client.ListVoiceProfilesParams{Page: &page, SizePerPage: &size})
	}), opts.Limit)
	if err != nil {
		return err
	}
	return opts.Output.Print(opts.IO, profiles, func(t *cmdutil.Table) {
		t.Header("ID", "NAME", "GENDER", "LANGUAGE", "STATUS", "SPEAKS WITH", "SAMPLES", "CREATED")
		for _, v := range profiles {
			t.Row(v.Id, v.Name, string(v.Gender), v.Language, string(v.Status), cmdutil.Str(v.EngineVoice),
				strconv.Itoa(len(v.AudioUrls)), cmdutil.Time(&v.CreatedAt))
		}
	})
}
