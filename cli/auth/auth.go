// Package auth is `betty signup`, `betty login`, `betty logout` and `betty whoami`: the
// accounts and credentials a profile holds.
package auth

import (
	"cmp"
	"context"
	"fmt"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/config"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// DefaultServer is offered when no server is known: a local `betty serve`.
const DefaultServer = "http://localhost:8080"

// account is what signup and login share: where the profile is, which server, and who.
type account struct {
	IO        *cmdutil.IOStreams
	Profile   func() (*config.Config, *config.Profile, error)
	NewClient func(server string, opts ...betty.Option) (*betty.Client, error)
	Getenv    func(string) string

	ProfileName   string
	Server        string
	Email         string
	PasswordStdin bool
}

func newAccount(f *cmdutil.Factory) account {
	return account{IO: f.IO, Profile: f.Profile, NewClient: f.ClientFor, Getenv: f.Getenv}
}

// server is --server, else $BETTY_SERVER, else the profile's, else asked.
func (a *account) server(p *config.Profile) (string, error) {
	if s := cmp.Or(a.Server, a.Getenv("BETTY_SERVER"), p.Server); s != "" {
		return s, nil
	}
	return ask(a.IO, "--server", "Betty server URL", DefaultServer)
}

// email is --email, else asked (the profile's offered), checked.
func (a *account) email(p *config.Profile) (string, error) {
	email := a.Email
	if email == "" {
		var err error
		if email, err = ask(a.IO, "--email", "E-mail", p.Email); err != nil {
			return "", err
		}
	}
	return email, cmdutil.Email.Check(email)
}

// password reads the password from stdin (--password-stdin) or asks for it without echo;
// confirm asks twice, for a new one. It is checked against rule.
func (a *account) password(rule cmdutil.Rule, confirm bool) (string, error) {
	var password string
	var err error
	switch {
	case a.PasswordStdin:
		password, err = a.IO.ReadLine()
	case a.IO.CanPrompt():
		password, err = a.IO.PromptPassword("Password")
		if err == nil && confirm {
			if err = rule.Check(password); err != nil {
				return "", err
			}
			var again string
			if again, err = a.IO.PromptPassword("Password again"); err == nil && again != password {
				return "", cmdutil.FlagErrorf("the two passwords differ")
			}
		}
	default:
		return "", cmdutil.FlagErrorf("--password-stdin is required when not running interactively")
	}
	if err != nil {
		return "", fmt.Errorf("read the password: %w", err)
	}
	return password, rule.Check(password)
}

// keep stores the session in the profile, saves it at once (it cannot be had again without the
// password) and picks the current team. done is what to tell the person first.
func (a *account) keep(ctx context.Context, cfg *config.Config, p *config.Profile, server string, c *betty.Client, done string) error {
	p.Server = server
	if cfg.CurrentProfile == "" {
		cfg.CurrentProfile = cfg.ProfileName(a.ProfileName)
	}
	if err := cfg.Save(); err != nil {
		return err
	}
	fmt.Fprintln(a.IO.ErrOut, done)

	teams, err := cmdutil.ListTeams(ctx, c, 0)
	if err != nil {
		fmt.Fprintf(a.IO.ErrOut, "warning: could not list your teams to pick the current one: %v\n", err)
		return nil
	}
	team := currentTeam(teams, p.Team)
	if team == nil {
		p.Team = ""
		fmt.Fprintln(a.IO.ErrOut, "You are in no team yet: create one with `betty teams create <name>`.")
	} else {
		p.Team = team.Id
		fmt.Fprintf(a.IO.ErrOut, "Current team: %s (%s).\n", team.Name, team.Id)
	}
	return cfg.Save()
}

// keepSession puts the session's tokens in the profile in place of its credentials.
func keepSession(p *config.Profile, s client.Session) {
	p.ClearCredentials()
	p.AccessToken, p.RefreshToken, p.Email = s.AccessToken, s.RefreshToken, string(s.User.Email)
}

// ask prompts for a value the flag did not give; without a terminal the flag is required.
func ask(io *cmdutil.IOStreams, flag, question, def string) (string, error) {
	if !io.CanPrompt() {
		return "", cmdutil.FlagErrorf("%s is required when not running interactively", flag)
	}
	answer, err := io.Prompt(question, def)
	if err != nil {
		return "", err
	}
	if answer == "" {
		return "", cmdutil.FlagErrorf("%s is required", flag)
	}
	return answer, nil
}

// currentTeam keeps the profile's team when it is still one of the caller's, else takes the
// oldest; nil when the caller has none.
func currentTeam(teams []client.Organization, current string) *client.Organization {
	for i := range teams {
		if teams[i].Id == current {
			return &teams[i]
		}
	}
	if len(teams) > 0 {
		return &teams[0]
	}
	return nil
}
