package workflow

import (
	"fmt"
	"sort"
	"strings"
)

// Script says who is speaking and in which flow, for CompilePrompt.
type Script struct {
	Name  string // the workflow's name
	Type  Type
	Agent string // the agent profile's name; "the agent" when empty
}

// CompilePrompt answers the readable prompt of a graph: a numbered script of the flow, what
// the agent says at each step (its instruction and spoken line), what each branch listens for and where each step goes. It is
// deterministic: steps are numbered in breadth-first order from Start, a node's next steps
// taken left to right as drawn (by x, then id). Steps no path from Start reaches are listed at
// the end. Webhook header values are never written (they often hold secrets), only their
// names.
func CompilePrompt(g Graph, s Script) string {
	g, _ = Normalize(g)
	agent := s.Agent
	if agent == "" {
		agent = "the agent"
	}
	nodes := map[string]Node{}
	for _, n := range g.Nodes {
		nodes[n.ID] = n
	}
	out := map[string][]string{}
	for _, e := range g.Edges {
		out[e.Source] = append(out[e.Source], e.Target)
	}
	for id := range out {
		t := out[id]
		sort.SliceStable(t, func(i, j int) bool {
			a, b := nodes[t[i]], nodes[t[j]]
			if a.Position.X != b.Position.X {
				return a.Position.X < b.Position.X
			}
			return a.ID < b.ID
		})
	}
	// Invisible placeholders are canvas furniture: skip through them.
	var resolve func(string, map[string]bool) []string
	resolve = func(id string, seen map[string]bool) []string {
		if nodes[id].Type != Invisible {
			return []string{id}
		}
		if seen[id] {
			return nil
		}
		seen[id] = true
		var r []string
		for _, t := range out[id] {
			r = append(r, resolve(t, seen)...)
		}
		return r
	}
	next := func(id string) []string {
		var r []string
		for _, t := range out[id] {
			r = append(r, resolve(t, map[string]bool{})...)
		}
		return r
	}

	var order []string
	step := map[string]int{}
	add := func(id string) {
		if _, ok := step[id]; !ok {
			step[id] = len(order) + 1
			order = append(order, id)
		}
	}
	for _, n := range g.Nodes {
		if n.Type == Start {
			add(n.ID)
			break
		}
	}
	for i := 0; i < len(order); i++ {
		for _, t := range next(order[i]) {
			add(t)
		}
	}
	reached := len(order)
	for _, n := range g.Nodes {
		if n.Type != Invisible && n.Type != Contacts {
			add(n.ID)
		}
	}

	var b strings.Builder
	name := s.Name
	if name == "" {
		name = "Untitled workflow"
	}
	fmt.Fprintf(&b, "Call flow %q", name)
	if s.Type != "" {
		fmt.Fprintf(&b, " (%s)", s.Type)
	}
	b.WriteString("\n")
	if s.Type == Outbound {
		fmt.Fprintf(&b, "%s calls each contact of the list", capital(agent))
		for _, n := range g.Nodes {
			if n.Type == Contacts && n.Data.String(FieldSource) != "" {
				fmt.Fprintf(&b, " (from %s)", sourceName(n.Data.String(FieldSource)))
			}
		}
		b.WriteString(" and follows the steps below.\n")
	} else if s.Type == Inbound {
		fmt.Fprintf(&b, "%s answers incoming calls and follows the steps below.\n", capital(agent))
	}
	if len(order) == 0 {
		b.WriteString("\nThe flow is empty.\n")
		return b.String()
	}
	goTo := func(ids []string) string {
		var parts []string
		for _, id := range ids {
			parts = append(parts, fmt.Sprintf("step %d", step[id]))
		}
		return strings.Join(parts, " or ")
	}
	for i, id := range order {
		if i == reached {
			b.WriteString("\nNot connected to the flow (never reached):\n")
		}
		n := nodes[id]
		d := n.Data
		fmt.Fprintf(&b, "\nStep %d. %s", step[id], title(n))
		b.WriteString("\n")
		nx := next(id)
		switch n.Type {
		case Start:
			b.WriteString("  The call starts.\n")
		case Agent:
			if t := strings.TrimSpace(d.String(FieldInstruction)); t != "" {
				fmt.Fprintf(&b, "  %s: %s\n", capital(agent), oneLine(t))
			} else {
				fmt.Fprintf(&b, "  %s has no instruction here yet.\n", capital(agent))
			}
		case CustomerResponse:
			if t := strings.TrimSpace(d.String(FieldDescription)); t != "" {
				fmt.Fprintf(&b, "  When the customer says: %s\n", oneLine(t))
			} else {
				b.WriteString("  When the customer answers (not described yet).\n")
			}
		case ConditionalPath:
			b.WriteString("  Listen to the customer and take the path that matches:\n")
			for _, t := range nx {
				desc := strings.TrimSpace(nodes[t].Data.String(FieldDescription))
				if desc == "" {
					desc = label(nodes[t])
				}
				fmt.Fprintf(&b, "  - %s: go to step %d.\n", oneLine(desc), step[t])
			}
			continue
		case EndCall:
			b.WriteString("  End the call politely.\n")
		case ForwardCall:
			if p := d.String(FieldDestination); p != "" {
				fmt.Fprintf(&b, "  Forward the call to %s.\n", p)
			} else {
				b.WriteString("  Forward the call (no destination number yet).\n")
			}
		case DataAccess:
			b.WriteString("  Look up what Betty knows about the caller before going on.\n")
		case LifecycleStage:
			fmt.Fprintf(&b, "  Set the contact's lifecycle stage in HubSpot to %q.\n", d.String(FieldStage))
		case Webhook:
			fmt.Fprintf(&b, "  Send %s %s", orDefault(d.String(FieldMethod), "a request to"), orDefault(d.String(FieldWebhookURL), "(no URL yet)"))
			if wd, ok := d[FieldWebhookData].(map[string]any); ok {
				for _, part := range []string{"params", "headers", "body"} {
					if m, ok := wd[part].(map[string]any); ok && len(m) > 0 {
						fmt.Fprintf(&b, "; %s: %s", part, strings.Join(sortedKeys(m), ", "))
					}
				}
			}
			b.WriteString(".\n")
		}
		if line := strings.TrimSpace(d.String(FieldSay)); line != "" && Speaks(n.Type) {
			fmt.Fprintf(&b, "  Spoken line (said as written without a language model): %q\n", oneLine(line))
		}
		if len(nx) > 0 {
			fmt.Fprintf(&b, "  Then go to %s.\n", goTo(nx))
		} else if n.Type != EndCall && n.Type != ForwardCall {
			b.WriteString("  (This path has no next step.)\n")
		}
	}
	return b.String()
}

func title(n Node) string {
	kind := map[Kind]string{Start: "Start", Agent: "Agent", CustomerResponse: "Customer response",
		EndCall: "End call", ForwardCall: "Forward call", DataAccess: "Data access",
		LifecycleStage: "HubSpot lifecycle stage", Webhook: "Webhook", ConditionalPath: "Conditional path",
		Contacts: "Contacts", Invisible: "Placeholder"}[n.Type]
	if kind == "" {
		kind = string(n.Type)
	}
	if l := strings.TrimSpace(n.Data.String(FieldNodeLabel)); l != "" {
		return kind + ": " + oneLine(l)
	}
	return kind
}

func label(n Node) string {
	if l := strings.TrimSpace(n.Data.String(FieldNodeLabel)); l != "" {
		return l
	}
	return "anything else"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func sourceName(s string) string {
	switch s {
	case "csv":
		return "a CSV file"
	case "hubspot":
		return "HubSpot"
	case "zapier":
		return "Zapier"
	}
	return s
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
