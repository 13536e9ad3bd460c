package cmdutil

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// Exit codes. Scripts can tell a typo from a missing login from a missing resource.
const (
	ExitOK       = 0
	ExitError    = 1
	ExitUsage    = 2
	ExitAuth     = 4
	ExitNotFound = 8
)

// FlagError is a usage mistake: a bad flag, a missing argument, a flag that is required
// because no one is there to answer a prompt.
type FlagError struct{ err error }

func (e *FlagError) Error() string { return e.err.Error() }
func (e *FlagError) Unwrap() error { return e.err }

// FlagErrorf returns a usage error.
func FlagErrorf(format string, args ...any) error {
	return &FlagError{err: fmt.Errorf(format, args...)}
}

// FlagErrorWrap marks err as a usage error (cobra's flag errors, for one); nil stays nil.
func FlagErrorWrap(err error) error {
	var flagErr *FlagError
	if err == nil || errors.As(err, &flagErr) {
		return err
	}
	return &FlagError{err: err}
}

// ErrCancelled is a "no" to a confirmation.
var ErrCancelled = errors.New("cancelled")

// NotFoundf reports something the CLI looked for and did not find; it exits like the
// server's 404.
func NotFoundf(format string, args ...any) error {
	return notFoundError{fmt.Sprintf(format, args...)}
}

type notFoundError struct{ msg string }

func (e notFoundError) Error() string        { return e.msg }
func (e notFoundError) Is(target error) bool { return target == betty.ErrNotFound }

// WithHint adds what to do next to err: PrintError shows it under the message.
func WithHint(err error, hint string) error {
	if err == nil {
		return nil
	}
	return &hintError{err: err, hint: hint}
}

type hintError struct {
	err  error
	hint string
}

func (e *hintError) Error() string { return e.err.Error() }
func (e *hintError) Unwrap() error { return e.err }

// ExitInterrupted is a wait stopped by Ctrl-C (128 + SIGINT, as shells report it); what was
// waited for goes on.
const ExitInterrupted = 130

// WithExitCode makes err end the process with code instead of the one its kind maps to.
func WithExitCode(err error, code int) error {
	if err == nil {
		return nil
	}
	return &exitCodeError{err: err, code: code}
}

type exitCodeError struct {
	err  error
	code int
}

func (e *exitCodeError) Error() string { return e.err.Error() }
func (e *exitCodeError) Unwrap() error { return e.err }

// ExitCode maps an error returned by a command to the process's exit code.
func ExitCode(err error) int {
	var flagErr *FlagError
	var coded *exitCodeError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &coded):
		return coded.code
	case errors.As(err, &flagErr), isUnknownCommand(err):
		return ExitUsage
	case errors.Is(err, ErrNotLoggedIn), errors.Is(err, betty.ErrUnauthorized):
		return ExitAuth
	case errors.Is(err, betty.ErrNotFound):
		return ExitNotFound
	}
	// Anything else failed, a server that cannot be reached included.
	return ExitError
}

// cobra reports an unknown sub-command of the root with a plain error.
func isUnknownCommand(err error) bool {
	return strings.HasPrefix(err.Error(), "unknown command ")
}

// PrintError writes err for a person: the server's explanation and each rejected field in
// plain words, and what to do next where there is something to do.
func PrintError(w io.Writer, cmd *cobra.Command, err error) {
	printError(w, cmd, err)
	var hint *hintError
	if errors.As(err, &hint) {
		fmt.Fprintln(w, hint.hint)
	}
}

func printError(w io.Writer, cmd *cobra.Command, err error) {
	var apiErr *betty.APIError
	var unreachable *betty.UnreachableError
	switch {
	case errors.Is(err, ErrCancelled):
		fmt.Fprintln(w, "Cancelled.")
		return
	case errors.As(err, &unreachable):
		fmt.Fprintf(w, "Error: cannot reach the Betty server at %s — is `betty serve` running?\n", unreachable.Server)
		return
	case !errors.As(err, &apiErr):
		fmt.Fprintf(w, "Error: %v\n", err)
		if ExitCode(err) == ExitUsage && cmd != nil {
			fmt.Fprintf(w, "Run '%s --help' for usage.\n", cmd.CommandPath())
		}
		return
	}

	msg := apiErr.Detail
	if msg == "" {
		msg = apiErr.Title
	}
	fmt.Fprintf(w, "Error: %s\n", msg)
	for _, f := range apiErr.Fields {
		fmt.Fprintf(w, "  - %s: %s\n", fieldName(f.Field), f.Message)
	}
	switch {
	case errors.Is(err, betty.ErrUnauthorized) && apiErr.Code != string(client.ProblemCodeInvalidCredentials):
		fmt.Fprintln(w, "Run `betty login` to sign in again.")
	case errors.Is(err, betty.ErrRateLimited) && apiErr.RetryAfter > 0:
		fmt.Fprintf(w, "Try again in %s.\n", apiErr.RetryAfter)
	case errors.Is(err, betty.ErrServer) && !errors.Is(err, betty.ErrNotImplemented) && apiErr.RequestID != "":
		fmt.Fprintf(w, "The server failed (HTTP %d); quote request id %s when reporting it.\n", apiErr.StatusCode, apiErr.RequestID)
	}
}

// fieldName drops the request part a field was in ("body.name" → "name"): the person typed a
// flag, not a request body.
func fieldName(path string) string {
	for _, prefix := range []string{"body.", "query.", "path.", "header."} {
		if rest, ok := strings.CutPrefix(path, prefix); ok {
			return rest
		}
	}
	return path
}

// ConfirmDestructive asks before something that cannot be undone. --yes answers for scripts;
// without a terminal to ask on, --yes is required.
func ConfirmDestructive(s *IOStreams, yes bool, question string) error {
	if yes {
		return nil
	}
	if !s.CanPrompt() {
		return FlagErrorf("--yes is required when not running interactively")
	}
	ok, err := s.Confirm(question)
	if err != nil {
		return err
	}
	if !ok {
		return ErrCancelled
	}
	return nil
}

// ExactArgs is cobra.ExactArgs whose error is a usage error naming what is missing.
func ExactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return FlagErrorf("%s (got %d argument(s))", what, len(args))
		}
		return nil
	}
}

// NoArgs rejects positional arguments with a usage error.
func NoArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return FlagErrorf("unexpected argument %q", args[0])
	}
	return nil
}
