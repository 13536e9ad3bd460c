// Command betty is Betty's one binary: `betty serve` runs the server, the other commands
// script a server through the API.
package main

import (
	"context"
	"io/fs"
	"os"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/root"
	"github.com/bettyhq/betty/dashboard"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	f := cmdutil.NewFactory(version, func() fs.FS { return dashboard.Dist() })
	os.Exit(root.Run(context.Background(), f, os.Args[1:]))
}
