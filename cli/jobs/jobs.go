// Package jobs is `betty jobs`: the runs of workflows — a workflow's history, the state of
// jobs, and ending a run in progress.
package jobs

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/sdk/client"
)

// NewCmdJobs returns `betty jobs` and its verbs.
func NewCmdJobs(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "jobs <command>",
		Short: "Jobs: the runs of workflows",
		Long: `Follow the background jobs of workflows: runs and test runs (workflow-run, started by
betty workflow run and test-run), contacts imports (contacts-import) and calls that came in
(inbound-call, one per call answered by an inbound workflow). A job is in-progress,
then success, error or cancelled; its progress counts contacts (or CSV rows) completed,
failed and pending.`,
		Example: `  betty jobs list --workflow 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11
  betty jobs status 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b20
  betty jobs end 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11`,
		Aliases: []string{"job"},
	}
	cmd.AddCommand(NewCmdList(f, nil), NewCmdStatus(f, nil), NewCmdEnd(f, nil))
	return cmd
}

// Types are the kinds of jobs, in the contract's order.
var Types = []client.JobType{client.WorkflowRun, client.ContactsImport, client.InboundCall}

// header and row are how tables show jobs.
func header(t *cmdutil.Table) {
	t.Header("ID", "TYPE", "STATUS", "PERCENT", "COMPLETED", "FAILED", "PENDING", "TOTAL", "TEST", "TRIGGERED BY", "STARTED", "FINISHED")
}

func row(t *cmdutil.Table, j client.Job) {
	test := ""
	if j.IsTest {
		test = "yes"
	}
	p := j.Progress
	t.Row(j.Id, string(j.Type), string(j.Status), fmt.Sprintf("%d%%", p.Percent), fmt.Sprint(p.Completed), fmt.Sprint(p.Failed),
		fmt.Sprint(p.Pending), fmt.Sprint(p.Total), test, j.TriggeredBy, cmdutil.Time(&j.StartedAt), cmdutil.Time(j.FinishedAt))
}
