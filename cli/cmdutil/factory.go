// Package cmdutil holds what every command shares: the IO streams and, lazily, what commands
// need from outside (configuration, clients), so a command's tests can swap any of it.
package cmdutil

import (
	"io"
	"io/fs"
	"os"
)

// IOStreams are a command's input and outputs: data goes to Out, messages to ErrOut.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// Factory builds what commands need. Fields are set once by main (or a test).
type Factory struct {
	IO      IOStreams
	Version string
	// Dashboard returns the built dashboard to embed in `betty serve` (nil when not built).
	Dashboard func() fs.FS
	// Getenv reads the environment (os.Getenv outside tests).
	Getenv func(string) string
}

// NewFactory returns the factory of a real process.
func NewFactory(version string, dashboard func() fs.FS) *Factory {
	return &Factory{
		IO:        IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr},
		Version:   version,
		Dashboard: dashboard,
		Getenv:    os.Getenv,
	}
}
