package cmdutil

import (
	"testing"

	"github.com/spf13/pflag"
)

func TestEnumVar(t *testing.T) {
	type color string
	var c color
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	EnumVar(fs, &c, "color", "", "red", "light blue")
	if err := fs.Parse([]string{"--color", "light blue"}); err != nil || c != "light blue" {
		t.Fatalf("%q %v", c, err)
	}
	err := fs.Parse([]string{"--color", "green"})
	if err == nil || err.Error() != `invalid argument "green" for "--color" flag: want red or light blue` || c != "light blue" {
		t.Fatalf("%q %v", c, err)
	}
}
