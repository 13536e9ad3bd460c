package cmdutil

import (
	"github.com/spf13/cobra"
)

// AddOutFileFlag adds -o/--out, the file a command that downloads something writes it to, as
// curl's -o does (`betty calls recording ID -o call.mp3`). Such a command prints no listing,
// so -o, which is the output format on every other betty command, names the file here; -O and
// --output are accepted too (hidden), for the hands used to wget or to the rest of betty.
func AddOutFileFlag(cmd *cobra.Command, path *string, usage string) {
	cmd.Flags().StringVarP(path, "out", "o", "", usage)
	cmd.Flags().StringVarP(path, "out-file", "O", "", usage)
	cmd.Flags().StringVar(path, "output", "", usage)
	_ = cmd.Flags().MarkHidden("out-file")
	_ = cmd.Flags().MarkHidden("output")
}
