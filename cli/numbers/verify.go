package numbers

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// VerifyOptions are the inputs of `betty numbers verify`.
type VerifyOptions struct {
	cmdutil.TeamOptions
	Number string
	Method client.PhoneVerificationMethod
	// Code, when given, completes the verification started before instead of starting one.
	Code   string
	Output cmdutil.Output
}

// NewCmdVerify returns `betty numbers verify`; runF replaces the run in tests.
func NewCmdVerify(f *cmdutil.Factory, runF func(*VerifyOptions) error) *cobra.Command {
	opts := &VerifyOptions{TeamOptions: cmdutil.NewTeamOptions(f)}
	var method string
	cmd := &cobra.Command{
		Use:   "verify <number>",
		Short: "Verify a number the team owns, to call from it",
		Long: `Prove the team owns a number it did not buy through Betty, so agents can call from it
(as caller id; calls to it do not reach Betty). The carrier calls the number and reads out a
code (or texts it, with --method sms); type the code when asked. The code works for 10
minutes; five wrong codes end the attempt.

Without a terminal, the command only asks for the code to be sent; run it again with --code
once it arrives. A server's offline simulator calls nobody: it writes the code to its log.`,
		Example: `  betty numbers verify +442079460123
  betty numbers verify +14155550123 --method sms
  betty numbers verify +14155550123 --code 482913`,
		Args: cmdutil.ExactArgs(1, "give the number to verify, such as +14155550123"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Number = args[0]
			if err := PhoneNumber.Check(opts.Number); err != nil {
				return err
			}
			var err error
			if opts.Method, err = cmdutil.Enum("method", method, Methods...); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runVerify(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmd.Flags().StringVar(&method, "method", "call", "The `method` that sends the code: "+cmdutil.OneOf(Methods...))
	Code.Var(cmd.Flags(), &opts.Code, "code", "The `code` received, to complete a verification started before")
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runVerify(ctx context.Context, opts *VerifyOptions) error {
	c, team, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	if opts.Code != "" {
		v, err := c.VerifyPhoneNumber(ctx, team, opts.Number, opts.Code)
		if err != nil {
			return err
		}
		return printVerified(opts, v)
	}
	v, err := c.RequestPhoneNumberVerification(ctx, team, opts.Number, opts.Method)
	if err != nil {
		return err
	}
	how := "calling " + opts.Number + " to read out"
	if v.Method == client.Sms {
		how = "texting " + opts.Number
	}
	fmt.Fprintf(opts.IO.ErrOut, "The carrier is %s a code; it works for 10 minutes.\n", how)
	if !opts.IO.CanPrompt() {
		fmt.Fprintf(opts.IO.ErrOut, "Once it arrives, run: betty numbers verify %s --code <code>\n", opts.Number)
		return opts.Output.Print(opts.IO, v, func(t *cmdutil.Table) { verificationRows(t, v) })
	}
	for left := v.AttemptsLeft; ; left-- {
		code, err := opts.IO.Prompt("Code", "")
		if err != nil {
			return err
		}
		if err := Code.Check(code); err != nil {
			fmt.Fprintln(opts.IO.ErrOut, err)
			left++ // not sent: no try spent
			continue
		}
		v, err = c.VerifyPhoneNumber(ctx, team, opts.Number, code)
		if apiErr, ok := wrongCode(err); ok && left > 1 {
			fmt.Fprintln(opts.IO.ErrOut, apiErr.Detail)
			continue
		}
		if err != nil {
			return err
		}
		return printVerified(opts, v)
	}
}

// wrongCode answers the server's refusal of a code (400 naming body.code).
func wrongCode(err error) (*betty.APIError, bool) {
	var apiErr *betty.APIError
	if !errors.As(err, &apiErr) || !errors.Is(err, betty.ErrValidation) {
		return nil, false
	}
	for _, f := range apiErr.Fields {
		if f.Field == "body.code" {
			return apiErr, true
		}
	}
	return nil, false
}

func printVerified(opts *VerifyOptions, v client.PhoneNumberVerification) error {
	fmt.Fprintf(opts.IO.ErrOut, "Verified %s: the team's agents can call from it now.\n", v.PhoneNumber)
	return opts.Output.Print(opts.IO, v, func(t *cmdutil.Table) { verificationRows(t, v) })
}

// verificationRows shows one verification, a label and a value per row.
func verificationRows(t *cmdutil.Table, v client.PhoneNumberVerification) {
	t.Row("ID", v.Id)
	t.Row("NUMBER", v.PhoneNumber)
	t.Row("STATUS", string(v.Status))
	t.Row("METHOD", string(v.Method))
	t.Row("EXPIRES", cmdutil.Time(v.ExpiresAt))
	t.Row("VERIFIED", cmdutil.Time(v.VerifiedAt))
	t.Row("PHONE NUMBER ID", cmdutil.Str(v.PhoneNumberId))
}
