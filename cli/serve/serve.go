// Package serve is `betty serve`: the API, the background work and the dashboard on one port.
package serve

import (
	"context"
	"fmt"
	"net"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/server/app"
	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/logging"
)

// NewCmdServe returns `betty serve`.
func NewCmdServe(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the Betty server",
		Long: `Run the Betty server: the API, the background workers and the dashboard on one port.

With no flags Betty keeps its data in a SQLite file under the data directory and needs
nothing else installed. --database-url postgres://… switches to PostgreSQL. Settings can
also come from BETTY_* environment variables or a YAML file (--config); a flag beats the
environment, which beats the file.`,
		Example: `  # Start on SQLite in ./data, listening on port 8080
  betty serve --data-dir ./data

  # Start on PostgreSQL behind a public URL
  BETTY_DATABASE_URL=postgres://betty@db/betty betty serve --base-url https://betty.example.com`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := config.Load(cmd.Flags(), f.Getenv)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			return run(ctx, f, cfg)
		},
	}
	config.RegisterFlags(cmd.Flags())
	return cmd
}

func run(ctx context.Context, f *cmdutil.Factory, cfg config.Config) error {
	log := logging.New(f.IO.ErrOut, cfg.LogFormat, cfg.LogLevel)
	a, err := app.New(ctx, cfg, log, f.Dashboard(), f.Version)
	if err != nil {
		return err
	}
	defer a.Close()
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	a.PrintSummary(f.IO.ErrOut, ln.Addr().String())
	return a.Serve(ctx, ln)
}
