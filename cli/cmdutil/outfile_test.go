package cmdutil_test

import (
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
)

func TestOutFileFlag(t *testing.T) {
	var path string
	cmd := func() *cobra.Command {
		path = ""
		c := &cobra.Command{Use: "download", RunE: func(*cobra.Command, []string) error { return nil }}
		cmdutil.AddOutFileFlag(c, &path, "Write to this `file`")
		c.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return cmdutil.FlagErrorWrap(err) })
		return c
	}
	for _, args := range [][]string{{"-o", "a.mp3"}, {"--out", "a.mp3"}, {"--out=a.mp3"}, {"-O", "a.mp3"}, {"--output", "a.mp3"}} {
		if err := clitest.Run(cmd(), args...); err != nil || path != "a.mp3" {
			t.Errorf("%v: %v %q", args, err, path)
		}
	}
	for _, hidden := range []string{"out-file", "output"} {
		if f := cmd().Flags().Lookup(hidden); f == nil || !f.Hidden {
			t.Errorf("--%s should stay out of the help", hidden)
		}
	}
}
