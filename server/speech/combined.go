package speech

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bettyhq/betty/server/errs"
)

// Combined offers the voices of several engines as one list, in the engines' order, and
// speaks each voice with the engine that offered it (Voice.Engine). An engine that cannot list
// its voices (not installed) is left out while another can; when none can, the answer is 503
// with every engine's message, so the operator reads what to install.
type Combined struct {
	engines []TextToSpeech
}

var _ TextToSpeech = (*Combined)(nil)

// Combine returns the engines as one.
func Combine(engines ...TextToSpeech) *Combined { return &Combined{engines: engines} }

// Engine names the engines for people ("flite + espeak-ng").
func (c *Combined) Engine() string {
	names := make([]string, len(c.engines))
	for i, e := range c.engines {
		names[i] = e.Engine()
	}
	return strings.Join(names, " + ")
}

// Voices are the voices of every engine that can list them.
func (c *Combined) Voices(ctx context.Context) ([]Voice, error) {
	var out []Voice
	var failures []error
	for _, e := range c.engines {
		vs, err := e.Voices(ctx)
		if err != nil {
			failures = append(failures, err)
			continue
		}
		out = append(out, vs...)
	}
	switch {
	case len(failures) == 0 || len(failures) < len(c.engines):
		return out, nil
	case len(failures) == 1:
		return nil, failures[0]
	}
	messages := make([]string, len(failures))
	for i, err := range failures {
		messages[i] = err.Error()
		if e, ok := errs.As(err); ok {
			messages[i] = e.Message
		}
	}
	return nil, Unavailable(strings.Join(messages, " "), errors.Join(failures...))
}

// Synthesize speaks with the engine that offered v.
func (c *Combined) Synthesize(ctx context.Context, text string, v Voice) ([]byte, error) {
	for _, e := range c.engines {
		if e.Engine() == v.Engine {
			return e.Synthesize(ctx, text, v)
		}
	}
	return nil, Unavailable(fmt.Sprintf("The voice %s needs the %s engine, which this server does not run.", v.Name, v.Engine),
		fmt.Errorf("speech: no engine %q for voice %s", v.Engine, v.ID))
}
