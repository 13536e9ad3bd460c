// Package workflows is `betty workflow`: a team's call flows — list, view, create (empty or
// from a template, in a campaign, with a number), rename, delete, set-number, set-agent — and their graphs as files people keep in git: export,
// import, and validate, which checks a graph locally with the server's own rules.
package workflows

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// NewCmdWorkflow returns `betty workflow` and its verbs.
func NewCmdWorkflow(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "workflow <command>",
		Short: "Workflows: the call flows agents follow",
		Long: `Manage the workflows of the current team (or the one given with --team): call flows
drawn as a graph of nodes (what the agent says, what the customer may answer, actions such as
forwarding the call or calling a webhook) joined by edges.

A workflow's graph can be exported to a YAML or JSON file, kept in git, validated locally with
the same rules the server applies, and imported back. Saves are versioned: importing a file
exported at an older version than the stored one is refused unless --force is given.

An outbound workflow runs once it has an agent, a phone number to call from (its own, given
with create --phone-number or set-number, or its campaign's) and contacts (betty contacts
import). betty workflow run calls them (--wait follows the run live); test-run places one test
call and --follow prints the conversation as it happens.`,
		Example: `  betty workflow templates --type inbound
  betty workflow create "Support line" --type inbound --agent 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 \
    --template template-customer-support --set companyName=Acme --set supportEmail=help@acme.example \
    --phone-number +14155550100
  betty workflow create "Reminders" --campaign "Spring renewals" --template template-appointment-reminder
  betty workflow export 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 > flow.yaml
  betty workflow validate flow.yaml
  betty workflow import flow.yaml
  betty workflow run 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11 --wait`,
		Aliases: []string{"workflows", "wf"},
	}
	cmd.AddCommand(NewCmdList(f, nil), NewCmdView(f, nil), NewCmdCreate(f, nil), NewCmdRename(f, nil), NewCmdDelete(f, nil),
		NewCmdSetNumber(f, nil), NewCmdSetAgent(f, nil), NewCmdTemplates(f, nil), NewCmdExport(f, nil), NewCmdImport(f, nil), NewCmdValidate(f, nil),
		NewCmdRun(f, nil), NewCmdTestRun(f, nil))
	return cmd
}

// The rules of what the commands send, copied from the contract (workflows_test.go checks
// that they still agree).
var (
	wfName = cmdutil.Rule{Name: "workflow name", Schema: "CreateWorkflowRequest.name", Min: 1, Max: 100}
	types  = []client.WorkflowType{client.WorkflowTypeInbound, client.WorkflowTypeOutbound}
)

// File is a workflow's graph as a file: what export writes and import and validate read.
// WorkflowID and Version say which saved version it came from; import saves over that
// version only.
type File struct {
	WorkflowID   string                `json:"workflowId,omitempty" yaml:"workflowId,omitempty"`
	Name         string                `json:"name,omitempty" yaml:"name,omitempty"`
	WorkflowType client.WorkflowType   `json:"workflowType" yaml:"workflowType"`
	Version      int                   `json:"version,omitempty" yaml:"version,omitempty"`
	Nodes        []client.WorkflowNode `json:"nodes" yaml:"nodes"`
	Edges        []client.WorkflowEdge `json:"edges" yaml:"edges"`
	// PostCallFields are what the post-call analysis reads from each call; a file without
	// them leaves the workflow's as they are.
	PostCallFields *[]client.PostCallField `json:"postCallFields,omitempty" yaml:"postCallFields,omitempty"`
}

// fileOf is the file of a workflow.
func fileOf(w client.Workflow) File {
	g := betty.GraphOf(w)
	return File{WorkflowID: w.Id, Name: w.Name, WorkflowType: w.WorkflowType, Version: w.Version, Nodes: g.Nodes, Edges: g.Edges,
		PostCallFields: g.PostCallFields}
}

// readFile reads a graph file, YAML or JSON ("-" is standard input), answering it and its raw
// JSON form (which keeps keys the typed file does not know, for the local rules).
func readFile(s *cmdutil.IOStreams, path string) (File, []byte, error) {
	var raw []byte
	var err error
	if path == "-" {
		var buf bytes.Buffer
		_, err = buf.ReadFrom(s.In)
		raw = buf.Bytes()
	} else {
		raw, err = os.ReadFile(path)
	}
	if err != nil {
		return File{}, nil, cmdutil.FlagErrorf("cannot read %s: %v", path, err)
	}
	var doc any
	if err := yaml.Unmarshal(raw, &doc); err != nil { // YAML is a superset of JSON
		return File{}, nil, fmt.Errorf("%s is neither YAML nor JSON: %v", path, err)
	}
	js, err := json.Marshal(doc)
	if err != nil {
		return File{}, nil, fmt.Errorf("%s: %v", path, err)
	}
	var f File
	dec := json.NewDecoder(bytes.NewReader(js))
	if err := dec.Decode(&f); err != nil {
		return File{}, nil, fmt.Errorf("%s is not a workflow graph: %v", path, err)
	}
	if f.WorkflowType != "" && f.WorkflowType != client.WorkflowTypeInbound && f.WorkflowType != client.WorkflowTypeOutbound {
		return File{}, nil, fmt.Errorf("%s: workflowType is inbound or outbound, not %q", path, f.WorkflowType)
	}
	return f, js, nil
}

// typeOf shows a workflow's type, with "campaign" for one of a campaign.
func campaignOf(w client.Workflow) string {
	if w.CampaignId == nil {
		return ""
	}
	return *w.CampaignId
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return ""
}

// printProblems writes what stops a workflow from running, one line per node.
func printProblems(s *cmdutil.IOStreams, problems *[]client.FieldError) {
	if problems == nil || len(*problems) == 0 {
		return
	}
	fmt.Fprintf(s.ErrOut, "Not runnable yet (%d to fix):\n", len(*problems))
	for _, p := range *problems {
		fmt.Fprintf(s.ErrOut, "  - %s: %s\n", p.Field, p.Message)
	}
}

// printWarnings writes what will sound wrong when the workflow runs (the server's warnings:
// steps without a spoken line while it has no language model), one line per node.
func printWarnings(s *cmdutil.IOStreams, warnings *[]client.FieldError) {
	if warnings == nil || len(*warnings) == 0 {
		return
	}
	fmt.Fprintf(s.ErrOut, "Will sound generic, the server having no language model (%d):\n", len(*warnings))
	for _, w := range *warnings {
		fmt.Fprintf(s.ErrOut, "  - %s: %s\n", w.Field, w.Message)
	}
}

func splitSet(kv string) (string, string, error) {
	k, v, ok := strings.Cut(kv, "=")
	if !ok || strings.TrimSpace(k) == "" {
		return "", "", cmdutil.FlagErrorf("--set takes key=value, not %q", kv)
	}
	return strings.TrimSpace(k), v, nil
}
