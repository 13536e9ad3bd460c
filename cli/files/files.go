// Package files is `betty files`: sending files to a team (knowledge files, teaching audio,
// voice samples, contacts lists) with resumable uploads.
package files

import (
	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// NewCmdFiles returns `betty files` and its verbs.
func NewCmdFiles(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "files <command>",
		Short: "Upload files to a team",
		Long: `Upload files for the current team (or the one given with --team): documents for knowledge
bases and agents, audio for agents and voices, contacts lists. Uploads resume where they
stopped; each gives a file URL that other commands and API calls take.`,
		Example: `  betty files upload price-list.pdf
  betty files upload greeting.mp3 --purpose voice-sample`,
		Aliases: []string{"file"},
	}
	cmd.AddCommand(NewCmdUpload(f, nil))
	return cmd
}
