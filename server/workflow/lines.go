package workflow

import (
	"regexp"
	"strings"
)

// Speaks reports whether a step of this kind says a line of its own: Agent, End Call and
// Forward Call steps (their `say`).
func Speaks(k Kind) bool { return k == Agent || k == EndCall || k == ForwardCall }

var quotedLine = regexp.MustCompile(`["“]([^"”]{2,})["”]`)

// Line is the spoken line a step's author wrote, placeholders unfilled: its `say`, else the
// lines its instruction quotes (`Then say "Thank you for calling."`). An instruction is a
// direction to the agent and is never read aloud, but text quoted in it is a line to say.
// "" when the author wrote none: without a language model the step then says a neutral line.
func Line(n Node) string {
	if s := strings.TrimSpace(n.Data.String(FieldSay)); s != "" {
		return s
	}
	var out []string
	for _, q := range quotedLine.FindAllStringSubmatch(n.Data.String(FieldInstruction), -1) {
		out = append(out, strings.TrimSpace(q[1]))
	}
	return strings.Join(out, " ")
}

// Generic answers, as warnings (they never stop a save or a run), the steps that will sound
// generic when no language model is configured: the Agent, End Call and Forward Call steps
// reachable or not that have no spoken line (Line). The caller asks only when the server has
// no language model; with one, the model words every step.
func Generic(g Graph) []Violation {
	v := newViolations(g)
	for _, n := range g.Nodes {
		if !Speaks(n.Type) || Line(n) != "" {
			continue
		}
		msg := "No spoken line: without a language model this step says a neutral line built from its label, not its instruction."
		switch n.Type {
		case EndCall:
			msg = "No spoken line: without a language model this step says a plain goodbye."
		case ForwardCall:
			msg = "No spoken line: without a language model this step says a plain \"Please hold\"."
		}
		v.node(n.ID, FieldSay, "say-missing", msg)
	}
	return v.sorted()
}
