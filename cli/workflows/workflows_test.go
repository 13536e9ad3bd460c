package workflows

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	"github.com/bettyhq/betty/cli/internal/clitest"
	"github.com/bettyhq/betty/server/api"
)

// The commands' rules copy the contract's.
func TestRulesAgreeWithTheContract(t *testing.T) {
	spec, err := api.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	name, prop, _ := strings.Cut(wfName.Schema, ".")
	s := spec.Components.Schemas[name].Value.Properties[prop].Value
	if int(s.MinLength) != wfName.Min || s.MaxLength == nil || int(*s.MaxLength) != wfName.Max {
		t.Errorf("%s: rule %+v, contract min %d max %v", wfName.Schema, wfName, s.MinLength, s.MaxLength)
	}
}

// Usage mistakes are refused before any request, in plain words.
func TestUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"create", "Flow", "--type", "inbound"}, "give the agent that speaks in it with --agent"},
		{[]string{"create", "Flow", "--agent", "0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10"}, "give the --type"},
		{[]string{"create", "Flow", "--agent", "0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10", "--type", "inbound", "--set", "a=b"}, "give the --template"},
		{[]string{"create", strings.Repeat("n", 101), "--type", "inbound"}, "want at most 100 characters"},
		{[]string{"create", "Flow", "--agent", "0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10", "--type", "inbound", "--activate"}, "--activate makes it its campaign's workflow: give the --campaign"},
		{[]string{"set-number", "0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11"}, "give the workflow's id and the number (or --remove)"},
		{[]string{"set-number", "0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11", "+14155550100", "--remove"}, "--remove takes the workflow's id only"},
		{[]string{"set-agent", "0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b11"}, "give the workflow's id and the agent's"},
		{[]string{"rename", "only-id"}, "give the workflow's id and its new name"},
		{[]string{"validate"}, "give the graph file to check"},
		{[]string{"validate", "/no/such/flow.yaml"}, "cannot read /no/such/flow.yaml"},
	} {
		f, _ := clitest.NewFactory(t, clitest.Options{})
		cmd := &cobra.Command{Use: "workflow"}
		cmd.AddCommand(NewCmdList(f, nil), NewCmdCreate(f, nil), NewCmdRename(f, nil), NewCmdValidate(f, nil),
			NewCmdSetNumber(f, nil), NewCmdSetAgent(f, nil))
		err := clitest.Run(cmd, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || cmdutil.ExitCode(err) != 2 {
			t.Errorf("%v: %v (exit %d), want %q", c.args, err, cmdutil.ExitCode(err), c.want)
		}
	}
}

// validate reads YAML or JSON, in any accepted spelling, and names each violation's node.
func TestValidateLocally(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	os.WriteFile(good, []byte(`workflowType: inbound
nodes:
  - {id: s, type: Start, position: {x: 0, y: 0}, data: {}}
  - {id: hi, type: agent, position: {x: 0, y: -400}, data: {instruction: Hello}}
  - {id: bye, type: end_call, position: {x: 0, y: -800}, data: {say: "Goodbye."}}
edges:
  - {id: e1, source: s, target: hi}
  - {id: e2, source: hi, target: bye}
`), 0o600)
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"workflowType":"outbound","nodes":[
 {"id":"s","type":"start","position":{"x":0,"y":0},"data":{}},
 {"id":"fw","type":"forward-call","position":{"x":0,"y":-400},"data":{"nodeLabel":"Sales"}},
 {"id":"hook","type":"webhook","position":{"x":0,"y":-400},"data":{"webhookUrl":"https://x.example"}}],
 "edges":[{"id":"e1","source":"s","target":"fw"}]}`), 0o600)
	refused := filepath.Join(dir, "refused.yaml")
	os.WriteFile(refused, []byte(`nodes: [{id: s, type: start, position: {x: 0, y: 0}, data: {}}, {id: f, type: forward-call, position: {x: 0, y: 0}, data: {destinationPhoneNumber: "+1999"}}]
edges: [{id: e, source: s, target: f}]
`), 0o600)
	run := func(path string) (string, error) {
		f, s := clitest.NewFactory(t, clitest.Options{})
		err := clitest.Run(NewCmdValidate(f, nil), path)
		return s.Out.String(), err
	}
	if out, err := run(good); err != nil || !strings.Contains(out, "runnable (3 nodes, 2 edges)") ||
		!strings.Contains(out, "Will sound generic without a language model (1):\n  - nodes[hi].say (agent): No spoken line") || strings.Contains(out, "nodes[bye]") {
		t.Errorf("good: %v %s", err, out)
	}
	out, err := run(bad)
	if err == nil || cmdutil.ExitCode(err) != 1 || !strings.Contains(out, `nodes[fw].destinationPhoneNumber (forward-call "Sales"): No destination numbers found`) ||
		!strings.Contains(out, "normalised: placeholder-added (hook)") || !strings.Contains(out, "nodes[hook].webhookMethod (webhook)") {
		t.Errorf("bad: %v\n%s", err, out)
	}
	if out, err := run(refused); err == nil || !strings.Contains(out, "A save would be refused (1):") || !strings.Contains(out, "nodes[f].destinationPhoneNumber") {
		t.Errorf("refused: %v\n%s", err, out)
	}
	// Post-call fields are checked as a save checks them.
	fields := filepath.Join(dir, "fields.yaml")
	os.WriteFile(fields, []byte(`nodes: [{id: s, type: start, position: {x: 0, y: 0}, data: {}}]
edges: []
postCallFields: [{name: email, type: email, description: "Your e-mail?"}, {name: Plan, type: choice, description: "Which plan?", options: [Pro]}]
`), 0o600)
	if out, err := run(fields); err == nil || !strings.Contains(out, "postCallFields[1].name") {
		t.Errorf("fields: %v\n%s", err, out)
	}
}
