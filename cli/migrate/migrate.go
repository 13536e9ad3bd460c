// Package migrate is `betty migrate`: apply the database migrations without starting the server.
package migrate

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/store"
)

// NewCmdMigrate returns `betty migrate`.
func NewCmdMigrate(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Apply pending database migrations",
		Long: `Apply every pending database migration and exit. betty serve does this at start too;
run it on its own before rolling out new replicas on PostgreSQL.`,
		Example: `  betty migrate --database-url postgres://betty@db/betty`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := config.Load(cmd.Flags(), f.Getenv)
			if err != nil {
				return err
			}
			db, err := store.Open(cmd.Context(), store.Options{DatabaseURL: cfg.DatabaseURL, DataDir: cfg.DataDir})
			if err != nil {
				return err
			}
			defer db.Close()
			applied, err := db.Migrate(cmd.Context())
			if err != nil {
				return err
			}
			for _, m := range applied {
				fmt.Fprintf(f.IO.ErrOut, "applied %05d %s\n", m.Version, m.Name)
			}
			v, err := db.MigrationVersion(cmd.Context())
			if err != nil {
				return err
			}
			fmt.Fprintf(f.IO.ErrOut, "%s is at version %d (%d applied now)\n", db.Source(), v, len(applied))
			return nil
		},
	}
	config.RegisterFlags(cmd.Flags())
	return cmd
}
