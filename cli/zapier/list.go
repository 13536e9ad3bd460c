package zapier

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// NewCmdHooksList returns `betty zapier hooks list`; runF replaces the run in tests.
func NewCmdHooksList(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	return newList(f, "list", "List the team's Zapier REST hooks",
		`List the team's REST-hook subscriptions, newest first: the event each receives and the hook URL
it is posted to (a zap's secret: keep it to the team). A hook that answers 410 Gone is
unsubscribed by Betty, so it no longer shows.`,
		`  betty zapier hooks list
  betty zapier hooks list --json`, []string{"ls"}, runHooks, runF)
}

func runHooks(ctx context.Context, o *Options) error {
	c, team, err := o.connect(ctx)
	if err != nil {
		return err
	}
	hooks, err := c.ZapierHooks(ctx, team)
	if err != nil {
		return err
	}
	return o.Output.Print(o.IO, hooks, func(t *cmdutil.Table) {
		t.Header("ID", "EVENT", "HOOK URL", "SUBSCRIBED", "LAST DELIVERY")
		for _, h := range hooks {
			t.Row(h.Id, string(h.Event), h.HookUrl, cmdutil.Time(&h.CreatedAt), lastDelivery(h.LastDelivery))
		}
	})
}

// lastDelivery says how a hook's latest delivery went: "-" before any, else its state, when,
// and why the last try failed.
func lastDelivery(d *client.ZapierDelivery) string {
	if d == nil {
		return "-"
	}
	out := string(d.Status) + " " + cmdutil.Time(&d.UpdatedAt)
	if d.Status != client.ZapierDeliveryStatusDelivered && d.Error != nil {
		out += " (" + *d.Error + ")"
	}
	return out
}

// NewCmdTemplates returns `betty zapier templates`.
func NewCmdTemplates(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	return newList(f, "templates", "List the Zap templates of Betty's Zapier app",
		`List the Zap templates that use Betty's Zapier app, from Zapier's partner API, with the link
that opens each in Zapier. The server needs Zapier's OAuth client (--zapier-client-id).`,
		`  betty zapier templates`, nil, runTemplates, runF)
}

func runTemplates(ctx context.Context, o *Options) error {
	c, team, err := o.connect(ctx)
	if err != nil {
		return err
	}
	ts, err := c.ZapierTemplates(ctx, team)
	if err != nil {
		return err
	}
	return o.Output.Print(o.IO, ts, func(t *cmdutil.Table) {
		t.Header("ID", "TITLE", "APPS", "URL")
		for _, tp := range ts {
			t.Row(tp.Id, tp.Title, apps(tp.Steps), tp.Url)
		}
	})
}

// NewCmdZaps returns `betty zapier zaps`.
func NewCmdZaps(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	var limit int
	cmd := newList(f, "zaps", "List the zaps of the team's Zapier account",
		`List the zaps of the team's connected Zapier account that use Betty's Zapier app, most
recently changed first. The team connects Zapier in the dashboard first.`,
		`  betty zapier zaps --limit 10`, nil, func(ctx context.Context, o *Options) error { return runZaps(ctx, o, limit) }, runF)
	cmdutil.AddLimitFlag(cmd, &limit)
	return cmd
}

func runZaps(ctx context.Context, o *Options, limit int) error {
	c, team, err := o.connect(ctx)
	if err != nil {
		return err
	}
	zaps, err := cmdutil.Collect(c.ZapierZaps(ctx, team), limit)
	if err != nil {
		return err
	}
	return o.Output.Print(o.IO, zaps, func(t *cmdutil.Table) {
		t.Header("ID", "TITLE", "STATE", "APPS", "CHANGED")
		for _, z := range zaps {
			t.Row(z.Id, z.Title, string(z.State), apps(z.Steps), cmdutil.Time(z.ModifiedAt))
		}
	})
}

func apps(steps []client.ZapierStep) string {
	names := make([]string, 0, len(steps))
	for _, s := range steps {
		names = append(names, s.Title)
	}
	return strings.Join(names, " → ")
}
