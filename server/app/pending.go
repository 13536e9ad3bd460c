package app

import (
	"context"

	"github.com/bettyhq/betty/server/errs"
)

// Stand-ins for the features that are being built beside agents (voices, uploads), so agents
// can be wired now. Each refuses what it cannot check; none pretends.

type noVoices struct{}

func (noVoices) CheckCustom(context.Context, string, string) error {
	return errs.NotFoundf("Voice profile")
}

func (noVoices) CheckPreset(context.Context, string) error { return errs.NotFoundf("Voice preset") }
