package admin

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/store"
)

// GrantOptions are the inputs of `betty admin grant`.
type GrantOptions struct {
	IO     *cmdutil.IOStreams
	Store  store.Options
	Email  string
	Revoke bool
}

// NewCmdGrant returns `betty admin grant`: it runs on the server host, against the database,
// so the first site administrator can be made.
func NewCmdGrant(f *cmdutil.Factory, runF func(*GrantOptions) error) *cobra.Command {
	opts := &GrantOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "grant <email>",
		Short: "Make a user a site administrator (run on the server host)",
		Long: `Give a user the site-administrator flag, or take it away with --revoke. This works on
the server's database directly, not through the API, so it is how the first site administrator
is made: run it on the server host. It finds the database as betty serve does (--data-dir,
--database-url, BETTY_* variables, --config file), says which one it opened, and never
creates or migrates one: betty serve must have run there first. make run keeps its data in
./data, so give --data-dir ./data. The user must have signed up already.`,
		Example: `  betty admin grant ada@example.com --data-dir ./data
  BETTY_DATABASE_URL=postgres://betty@db/betty betty admin grant ada@example.com
  betty admin grant ada@example.com --config /etc/betty.yaml --revoke`,
		Args: cmdutil.ExactArgs(1, "give the e-mail of the user"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Email = args[0]
			if err := cmdutil.Email.Check(opts.Email); err != nil {
				return err
			}
			// The same settings, from the same places, as betty serve.
			cfg, err := config.Load(cmd.Flags(), f.Getenv)
			if err != nil {
				return cmdutil.FlagErrorf("%v", err)
			}
			opts.Store = store.Options{DataDir: cfg.DataDir, DatabaseURL: cfg.DatabaseURL, MustExist: true}
			if runF != nil {
				return runF(opts)
			}
			return runGrant(cmd.Context(), opts)
		},
	}
	config.RegisterDatabaseFlags(cmd.Flags())
	cmd.Flags().BoolVar(&opts.Revoke, "revoke", false, "take the site-administrator flag away")
	return cmd
}

func runGrant(ctx context.Context, opts *GrantOptions) error {
	db, err := store.Open(ctx, opts.Store)
	if errors.Is(err, store.ErrNoDatabase) {
		return cmdutil.WithHint(err, fmt.Sprintf("make run keeps its data in ./data: betty admin grant %s --data-dir ./data", opts.Email))
	}
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Fprintf(opts.IO.ErrOut, "Using the database %s.\n", db.Source())
	// A database no server has migrated is not one betty serve uses; filling it would hide
	// the mistake.
	v, err := db.MigrationVersion(ctx)
	if err != nil {
		return err
	}
	if v == 0 {
		return cmdutil.WithHint(fmt.Errorf("the database %s has no Betty tables: betty serve has not run on it", db.Source()),
			"Run betty serve (or betty migrate) with the same settings first, or point at the server's database.")
	}

	u, err := db.SetSiteAdmin(ctx, opts.Email, !opts.Revoke)
	if errors.Is(err, store.ErrNotFound) {
		return cmdutil.NotFoundf("no user with the e-mail %s: they must sign up first", opts.Email)
	}
	if err != nil {
		return err
	}
	if u.IsSiteAdmin {
		fmt.Fprintf(opts.IO.ErrOut, "%s is now a site administrator.\n", u.Email)
	} else {
		fmt.Fprintf(opts.IO.ErrOut, "%s is no longer a site administrator.\n", u.Email)
	}
	return nil
}
