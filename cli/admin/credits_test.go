package admin

import (
	"testing"

	"github.com/bettyhq/betty/cli/internal/clitest"
)

func TestNewCmdCreditsGrant(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		credits int
		wantErr string
	}{
		{args: []string{"team-1", "100"}, credits: 100},
		{args: []string{"team-1", "0"}, wantErr: `invalid number of credits "0": want a whole number from 1 to 100000`},
		{args: []string{"team-1", "100001"}, wantErr: "from 1 to 100000"},
		{args: []string{"team-1"}, wantErr: "give the organisation's id and the number of credits"},
	} {
		f, _ := clitest.NewFactory(t, clitest.Options{})
		var got *CreditsGrantOptions
		err := clitest.Run(NewCmdCreditsGrant(f, func(o *CreditsGrantOptions) error { got = o; return nil }), tt.args...)
		if clitest.CheckErr(t, err, tt.wantErr) {
			continue
		}
		if got.ID != "team-1" || got.Credits != tt.credits {
			t.Errorf("%v: %+v", tt.args, got)
		}
	}
}
