package conversation

import (
	"encoding/json"
	"strings"

	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/workflow"
)

// The tools a language model is offered at a branch choice (see choose).
const (
	toolChoose   = "choose_branch"
	toolEnd      = "end_call"
	toolTransfer = "transfer_call"
)

// branchTools answers the tools of a choice among the n pending branches and the branch that
// end_call and transfer_call take when offered.
func (w *walk) branchTools(n int) ([]llm.Tool, map[string]int) {
	tools := []llm.Tool{{Name: toolChoose, Description: "Take the option of the call flow that matches what the customer said.",
		Parameters: map[string]any{"type": "object", "additionalProperties": false, "required": []string{"index"},
			"properties": map[string]any{"index": map[string]any{"type": "integer", "minimum": 1, "maximum": n,
				"description": "The option's number, as listed."}}}}}
	reason := map[string]any{"type": "object", "additionalProperties": false, "required": []string{"reason"},
		"properties": map[string]any{"reason": map[string]any{"type": "string", "description": "Why, in a few words."}}}
	found := map[workflow.Kind][]int{}
	for i, id := range w.st.Branches {
		if k := w.leadsTo(id); k != "" {
			found[k] = append(found[k], i)
		}
	}
	takes := map[string]int{}
	if b := found[workflow.EndCall]; len(b) == 1 {
		takes[toolEnd] = b[0]
		tools = append(tools, llm.Tool{Name: toolEnd, Description: "End the call: the customer is done or does not want to go on.", Parameters: reason})
	}
	if b := found[workflow.ForwardCall]; len(b) == 1 {
		takes[toolTransfer] = b[0]
		tools = append(tools, llm.Tool{Name: toolTransfer, Description: "Transfer the call to a person, as the customer asks.", Parameters: reason})
	}
	return tools, takes
}

// leadsTo answers End Call or Forward Call when the branch at id reaches that step before
// the agent listens again or the flow branches (the steps on the way taken as the walk takes
// them), "" otherwise.
func (w *walk) leadsTo(id string) workflow.Kind {
	seen := map[string]bool{}
	for cur := id; !seen[cur]; {
		seen[cur] = true
		n := w.g.nodes[cur]
		switch {
		case n.Type == workflow.EndCall || n.Type == workflow.ForwardCall:
			return n.Type
		case n.Type == workflow.CustomerResponse && cur != id:
			return ""
		}
		nx := w.g.next[cur]
		if len(nx) == 0 {
			return ""
		}
		if len(nx) > 1 {
			for _, x := range nx {
				if w.g.nodes[x].Type == workflow.CustomerResponse {
					return "" // a choice of its own
				}
			}
		}
		cur = nx[0]
	}
	return ""
}

// pickTool reads the first of the model's calls that names an offered option: the branch's
// index and how it was chosen; -1 when none does.
func pickTool(calls []llm.ToolCall, n int, takes map[string]int) (int, string) {
	for _, c := range calls {
		var args struct {
			Index  *float64 `json:"index"`
			Reason string   `json:"reason"`
		}
		if json.Unmarshal([]byte(c.Arguments), &args) != nil {
			continue
		}
		switch c.Name {
		case toolChoose:
			if args.Index != nil && *args.Index == float64(int(*args.Index)) && int(*args.Index) >= 1 && int(*args.Index) <= n {
				return int(*args.Index) - 1, toolChoose
			}
		case toolEnd, toolTransfer:
			if i, ok := takes[c.Name]; ok {
				how := c.Name
				if r := oneLine(args.Reason); r != "" {
					how += ": " + clip(strings.TrimSuffix(r, "."), 200)
				}
				return i, how
			}
		}
	}
	return -1, ""
}
