package voices

import (
	"context"
	"iter"
	"net/http"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// ListOptions are the inputs of `betty voices list`.
type ListOptions = cmdutil.TeamListOptions

// NewCmdList returns `betty voices list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	return cmdutil.NewCmdTeamList(f, cmdutil.TeamList[client.VoiceProfile]{
		Short: "List a team's custom voices",
		Long: `List the custom voice profiles of a team, newest first, with the preset each speaks
with on this server (SPEAKS WITH). Any member of the team may do this; presets are listed by
betty voices presets.`,
		Example: `  betty voices list
  betty voices list --team 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --json`,
		Items: func(ctx context.Context, c *betty.Client, team string, opts *cmdutil.TeamListOptions) iter.Seq2[client.VoiceProfile, error] {
			size := cmdutil.PageSize(opts.Limit)
			return betty.All[client.VoiceProfile](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
				return api.ListVoiceProfiles(ctx, team, &client.ListVoiceProfilesParams{Page: &page, SizePerPage: &size})
			})
		},
		Table: func(t *cmdutil.Table, items []client.VoiceProfile) {
			t.Header("ID", "NAME", "GENDER", "LANGUAGE", "STATUS", "SPEAKS WITH", "SAMPLES", "CREATED")
			for _, v := range items {
				t.Row(v.Id, v.Name, string(v.Gender), v.Language, string(v.Status), cmdutil.Str(v.EngineVoice),
					strconv.Itoa(len(v.AudioUrls)), cmdutil.Time(&v.CreatedAt))
			}
		},
	}, runF)
}
