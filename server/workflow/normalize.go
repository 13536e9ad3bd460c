package workflow

// Rule names a normalisation rule in a Change.
type Rule string

const (
	// RuleConditionalPathRemoved: a conditional path with one branch or none was removed.
	RuleConditionalPathRemoved Rule = "conditional-path-removed"
	// RuleEdgeReconnected: an edge into a removed conditional path now enters its branch.
	RuleEdgeReconnected Rule = "edge-reconnected"
	// RuleEdgeDropped: an edge was dropped (an extra edge from a used source handle, or an edge
	// into a removed node).
	RuleEdgeDropped Rule = "edge-dropped"
	// RuleInvisibleRemoved: an orphaned invisible node was removed.
	RuleInvisibleRemoved Rule = "invisible-removed"
	// RulePlaceholderAdded: a node without an incoming edge got an invisible placeholder source.
	RulePlaceholderAdded Rule = "placeholder-added"
)

// Change is one thing Normalize did, reported back to the client.
type Change struct {
	Rule   Rule   `json:"rule"`
	NodeID string `json:"nodeId,omitempty"`
	EdgeID string `json:"edgeId,omitempty"`
}

// placeholderOffset is how far above a node its placeholder sits (the canvas lays flows out
// top to bottom, so a source is above its target).
const placeholderOffset = 250

// Normalize applies the normalisation rules (see the package doc) and answers the normalised
// graph with what it changed. The input is not modified. Edges naming unknown nodes are left
// alone (Check refuses them).
func Normalize(in Graph) (Graph, []Change) {
	g := Clone(in)
	var changes []Change

	// 1. Conditional paths with one branch or none.
	for {
		removed := false
		for _, n := range g.Nodes {
			if n.Type != ConditionalPath {
				continue
			}
			out := outgoing(g, n.ID)
			if len(out) > 1 {
				continue
			}
			changes = append(changes, Change{Rule: RuleConditionalPathRemoved, NodeID: n.ID})
			var kept []Edge
			for _, e := range g.Edges {
				switch {
				case e.Source == n.ID:
					// the branch itself goes with the node
				case e.Target == n.ID && len(out) == 1 && e.Source != out[0].Target:
					e.Target = out[0].Target
					e.TargetHandle = out[0].TargetHandle
					changes = append(changes, Change{Rule: RuleEdgeReconnected, EdgeID: e.ID, NodeID: e.Target})
					kept = append(kept, e)
				case e.Target == n.ID:
					changes = append(changes, Change{Rule: RuleEdgeDropped, EdgeID: e.ID})
				default:
					kept = append(kept, e)
				}
			}
			g.Edges = kept
			g.Nodes = withoutNode(g.Nodes, n.ID)
			removed = true
			break
		}
		if !removed {
			break
		}
	}

	// 2. One outgoing edge per source handle.
	kinds := kindsOf(g)
	used := map[[2]string]bool{}
	var kept []Edge
	for _, e := range g.Edges {
		key := [2]string{e.Source, handle(e)}
		if kinds[e.Source] != ConditionalPath && used[key] {
			changes = append(changes, Change{Rule: RuleEdgeDropped, EdgeID: e.ID})
			continue
		}
		used[key] = true
		kept = append(kept, e)
	}
	g.Edges = kept

	// 3. Orphaned invisible nodes.
	for {
		removed := false
		for _, n := range g.Nodes {
			if n.Type != Invisible || len(outgoing(g, n.ID)) > 0 {
				continue
			}
			changes = append(changes, Change{Rule: RuleInvisibleRemoved, NodeID: n.ID})
			g = removeNode(g, n.ID, &changes)
			removed = true
			break
		}
		if !removed {
			break
		}
	}

	// 4. Placeholders for nodes without an incoming edge.
	hasIn := map[string]bool{}
	for _, e := range g.Edges {
		hasIn[e.Target] = true
	}
	ids := map[string]bool{}
	for _, n := range g.Nodes {
		ids[n.ID] = true
	}
	var nodes []Node
	var edges []Edge
	for _, n := range g.Nodes {
		if hasIn[n.ID] || n.Type == Start || n.Type == Contacts || n.Type == Invisible {
			continue
		}
		pid := "invisible-" + n.ID
		for ids[pid] {
			pid += "-1"
		}
		ids[pid] = true
		nodes = append(nodes, Node{ID: pid, Type: Invisible,
			Position: Position{X: n.Position.X, Y: n.Position.Y - placeholderOffset},
			Data:     Data{}, FlowMeta: map[string]any{}})
		edges = append(edges, Edge{ID: "edge-" + pid, Source: pid, Target: n.ID, Type: EdgeType, EdgeMeta: map[string]any{}})
		changes = append(changes, Change{Rule: RulePlaceholderAdded, NodeID: n.ID})
	}
	g.Nodes = append(g.Nodes, nodes...)
	g.Edges = append(g.Edges, edges...)
	if g.Nodes == nil {
		g.Nodes = []Node{}
	}
	if g.Edges == nil {
		g.Edges = []Edge{}
	}
	return g, changes
}

// DeleteNode removes the node id with its edges; a conditional path takes its branch nodes
// (the customer-response nodes its edges lead to) with it. Normalize the result.
func DeleteNode(in Graph, id string) Graph {
	g := Clone(in)
	kinds := kindsOf(g)
	var branches []string
	if kinds[id] == ConditionalPath {
		for _, e := range outgoing(g, id) {
			if kinds[e.Target] == CustomerResponse {
				branches = append(branches, e.Target)
			}
		}
	}
	g = removeNode(g, id, nil)
	for _, b := range branches {
		g = removeNode(g, b, nil)
	}
	return g
}

func removeNode(g Graph, id string, changes *[]Change) Graph {
	var kept []Edge
	for _, e := range g.Edges {
		if e.Source == id || e.Target == id {
			if changes != nil {
				*changes = append(*changes, Change{Rule: RuleEdgeDropped, EdgeID: e.ID})
			}
			continue
		}
		kept = append(kept, e)
	}
	return Graph{Nodes: withoutNode(g.Nodes, id), Edges: kept, Fields: g.Fields}
}

func withoutNode(nodes []Node, id string) []Node {
	var out []Node
	for _, n := range nodes {
		if n.ID != id {
			out = append(out, n)
		}
	}
	return out
}

func outgoing(g Graph, id string) []Edge {
	var out []Edge
	for _, e := range g.Edges {
		if e.Source == id {
			out = append(out, e)
		}
	}
	return out
}

func kindsOf(g Graph) map[string]Kind {
	m := make(map[string]Kind, len(g.Nodes))
	for _, n := range g.Nodes {
		m[n.ID] = n.Type
	}
	return m
}
