package cmdutil

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// IOStreams are a command's input and outputs: data goes to Out, messages to ErrOut.
// StdinTTY and StdoutTTY say whether a person is at the other end: tables and prompts are for
// them, plain tab-separated data and flags for scripts.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	StdinTTY  bool
	StdoutTTY bool

	lines *bufio.Reader
}

// System returns the process's streams.
func System() *IOStreams {
	return &IOStreams{
		In:        os.Stdin,
		Out:       os.Stdout,
		ErrOut:    os.Stderr,
		StdinTTY:  isTerminal(os.Stdin),
		StdoutTTY: isTerminal(os.Stdout),
	}
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// CanPrompt reports whether questions can be asked: both ends are a terminal.
func (s *IOStreams) CanPrompt() bool { return s.StdinTTY && s.StdoutTTY }

// ReadLine reads one line of input, without its line ending. The last line may lack one.
func (s *IOStreams) ReadLine() (string, error) {
	if s.lines == nil {
		s.lines = bufio.NewReader(s.In)
	}
	line, err := s.lines.ReadString('\n')
	if errors.Is(err, io.EOF) && line != "" {
		err = nil
	}
	return strings.TrimRight(line, "\r\n"), err
}

// Prompt asks a question on ErrOut and reads the answer; def is shown and returned for an
// empty answer.
func (s *IOStreams) Prompt(question, def string) (string, error) {
	if def != "" {
		fmt.Fprintf(s.ErrOut, "%s [%s]: ", question, def)
	} else {
		fmt.Fprintf(s.ErrOut, "%s: ", question)
	}
	answer, err := s.ReadLine()
	if err != nil {
		return "", err
	}
	if answer = strings.TrimSpace(answer); answer == "" {
		return def, nil
	}
	return answer, nil
}

// PromptPassword asks for a secret without echoing it when stdin is a terminal.
func (s *IOStreams) PromptPassword(question string) (string, error) {
	fmt.Fprintf(s.ErrOut, "%s: ", question)
	f, ok := s.In.(*os.File)
	if !ok || !isTerminal(f) {
		return s.ReadLine()
	}
	secret, err := term.ReadPassword(int(f.Fd()))
	fmt.Fprintln(s.ErrOut)
	return string(secret), err
}

// Confirm asks a yes/no question; only "y" or "yes" is a yes.
func (s *IOStreams) Confirm(question string) (bool, error) {
	answer, err := s.Prompt(question+" (y/N)", "")
	if err != nil {
		return false, err
	}
	switch strings.ToLower(answer) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}
