// Package workflow is the call-flow graph: its model, the rules that normalise it, the rules a
// runnable flow obeys, and the readable prompt compiled from it. It does no I/O; the
// `server/workflows` domain, the CLI and (through the shared vectors in testdata/graphs) the
// canvas all use the same rules.
//
// # Model
//
// A Graph is nodes and edges as the API carries them. Node kinds are the contract's NodeKind
// values (start, agent, customer-response, end-call, data-access, forward-call,
// hubspot-lifecycle-stage, webhook, invisible, conditional-path, contacts); ParseKind also
// accepts the spellings older clients and hand-written files use (Start, endCall, end_call,
// "End Call"). Node data is an open object: the known fields are nodeLabel, instruction, say
// (the spoken line of an Agent, End Call or Forward Call step), description, destinationPhoneNumber, lifeCycleStage, contactsSource, webhookUrl,
// webhookMethod and webhookData {params, headers, body}; other keys are kept as sent. The
// snake_case variants of the known fields (contacts_source, node_label, webhook_url…) are
// accepted on input and rewritten to camelCase, the one form written (the camelCase key wins
// when both are present). `flow_meta` and `edge_meta` are kept verbatim.
//
// # Normalisation (Normalize), applied at every save and reported back
//
// Applied in this order, which reaches a fixed point in one pass:
//  1. A conditional-path node with one branch or none (outgoing edges) is removed. With one
//     branch, every edge that entered it is redirected to the branch's target; with none, the
//     edges that entered it are dropped.
//  2. At most one outgoing edge per source handle (source + sourceHandle); a conditional-path
//     node is exempt (its branches share its handle). The first edge in input order stays,
//     later ones are dropped.
//  3. An orphaned invisible node (one without an outgoing edge) is removed with the edges
//     entering it.
//  4. A node without an incoming edge gets an invisible placeholder source, except start,
//     contacts and invisible nodes. The placeholder's id is "invisible-" + the node's id, its
//     edge's id "edge-invisible-" + the node's id, and it sits 250 canvas pixels above the node
//     (the canvas lays flows out top to bottom).
//
// Nodes and edges keep their input order; placeholders are appended after the kept nodes and
// edges, in the order of the nodes they feed. DeleteNode removes a node with its edges and, for
// a conditional path, its branch nodes (the customer-response targets of its edges), then the
// caller normalises.
//
// # Hard rules (Check), refused at save with one error per node
//
//   - node ids are unique and non-empty, edge ids too; every edge joins two nodes of the graph
//     and no edge joins a node to itself (field edges[<id>].source / .target);
//   - a non-empty graph has exactly one start node, which has no incoming edge;
//   - an outbound workflow has at most one contacts node and an inbound one none; a contacts
//     node has no incoming edge;
//   - data that is set must be well formed: destinationPhoneNumber a valid E.164 number (checked
//     with libphonenumber, not only its shape), webhookUrl an absolute http or https URL,
//     webhookMethod one of GET POST PUT PATCH DELETE, no webhookData.body with GET,
//     lifeCycleStage a known stage, contactsSource csv, hubspot or zapier;
//   - a conditional path's branches lead to customer-response nodes;
//   - no cycle except through a customer-response node: the agent may loop back only after
//     listening to the customer, otherwise the call would spin without anyone speaking.
//
// # Runnability (Validate), checked before a run and by `betty workflow validate`
//
// Everything Check refuses, plus what an unfinished canvas may still lack (so saves of work in
// progress are not refused):
//   - the graph has a start node;
//   - every node reachable from start can reach an End Call or a Forward Call (every path ends;
//     a dead end is reported on the node where it stops), and nothing follows an End Call or a
//     Forward Call;
//   - every node other than contacts and invisible ones is reachable from start;
//   - an agent node has an instruction, a customer-response node a description, a forward-call
//     node a destination ("Add a valid number to run your workflow."), a webhook a URL and a
//     method, a lifecycle-stage node a stage, a contacts node of an outbound flow a source.
//
// # Warnings (Generic), which never stop a save or a run
//
// An Agent, End Call or Forward Call step without a spoken line (Line: its `say`, else the
// lines its instruction quotes) sounds generic when no language model is configured: it says a
// neutral line built from its label. The server reports these only without a model.
//
// Each function answers at most one violation per node (the first rule it breaks, in the order
// above), with the field named nodes[<id>].<field> (nodes[<id>] when the node itself is wrong),
// edges[<id>].<field> for an edge, or nodes for the graph as a whole; violations are sorted by
// the node's (or edge's) position in the input.
package workflow

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Kind is the kind of a node.
type Kind string

const (
	Start            Kind = "start"
	Agent            Kind = "agent"
	CustomerResponse Kind = "customer-response"
	EndCall          Kind = "end-call"
	DataAccess       Kind = "data-access"
	ForwardCall      Kind = "forward-call"
	LifecycleStage   Kind = "hubspot-lifecycle-stage"
	Webhook          Kind = "webhook"
	Invisible        Kind = "invisible"
	ConditionalPath  Kind = "conditional-path"
	Contacts         Kind = "contacts"
)

// Kinds lists every node kind.
var Kinds = []Kind{Start, Agent, CustomerResponse, EndCall, DataAccess, ForwardCall, LifecycleStage,
	Webhook, Invisible, ConditionalPath, Contacts}

// kindAliases maps folded spellings (lower case, without separators) to kinds.
var kindAliases = map[string]Kind{
	"hubspot": LifecycleStage, "lifecyclestage": LifecycleStage, "hubspotlifecycle": LifecycleStage,
	"forward": ForwardCall, "conditional": ConditionalPath, "customer": CustomerResponse,
	"dataaccesstrigger": DataAccess, "end": EndCall,
}

// ParseKind reads a node kind in any of its spellings ("end-call", "end_call", "endCall",
// "End Call"); ok is false for an unknown kind.
func ParseKind(s string) (Kind, bool) {
	f := fold(s)
	for _, k := range Kinds {
		if fold(string(k)) == f {
			return k, true
		}
	}
	k, ok := kindAliases[f]
	return k, ok
}

func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r == '-' || r == '_' || r == ' ' {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Position is a node's place on the canvas.
type Position struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Data is a node's open data object.
type Data map[string]any

// Known data fields.
const (
	FieldNodeLabel   = "nodeLabel"
	FieldInstruction = "instruction"
	// FieldSay is the spoken line of an Agent, End Call or Forward Call step: said as written
	// (placeholders filled) when no language model is configured, the model's example of what
	// to say when one is.
	FieldSay         = "say"
	FieldDescription = "description"
	FieldDestination = "destinationPhoneNumber"
	FieldStage       = "lifeCycleStage"
	FieldSource      = "contactsSource"
	FieldWebhookURL  = "webhookUrl"
	FieldMethod      = "webhookMethod"
	FieldWebhookData = "webhookData"
)

var knownFields = []string{FieldNodeLabel, FieldInstruction, FieldSay, FieldDescription, FieldDestination, FieldStage,
	FieldSource, FieldWebhookURL, FieldMethod, FieldWebhookData}

// String answers a text field, "" when absent or not a string.
func (d Data) String(key string) string {
	s, _ := d[key].(string)
	return s
}

// Node is a card on the canvas.
type Node struct {
	ID       string         `json:"id"`
	Type     Kind           `json:"type"`
	Position Position       `json:"position"`
	Data     Data           `json:"data"`
	FlowMeta map[string]any `json:"flow_meta"`
}

// Edge joins two nodes, from Source (leaving its SourceHandle) to Target.
type Edge struct {
	ID           string         `json:"id"`
	Source       string         `json:"source"`
	Target       string         `json:"target"`
	SourceHandle *string        `json:"sourceHandle"`
	TargetHandle *string        `json:"targetHandle"`
	Type         string         `json:"type"`
	EdgeMeta     map[string]any `json:"edge_meta"`
}

// EdgeType is the one edge type.
const EdgeType = "add-step"

// Graph is a workflow's nodes and edges.
type Graph struct {
	Nodes []Node `json:"nodes"`
	Edges []Edge `json:"edges"`
	// Fields are the values the post-call analysis reads from a call's transcript (see
	// PostCallField); saved with the graph, nil when a save did not send them.
	Fields []PostCallField `json:"postCallFields,omitempty"`
}

// UnmarshalJSON reads a node, accepting the kind's and the data's other spellings.
func (n *Node) UnmarshalJSON(b []byte) error {
	var raw struct {
		ID        string         `json:"id"`
		Type      string         `json:"type"`
		Position  Position       `json:"position"`
		Data      Data           `json:"data"`
		FlowMeta  map[string]any `json:"flow_meta"`
		FlowMeta2 map[string]any `json:"flowMeta"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	k, ok := ParseKind(raw.Type)
	if !ok {
		k = Kind(raw.Type) // kept as sent; Check reports it
	}
	*n = Node{ID: raw.ID, Type: k, Position: raw.Position, Data: canonicalData(raw.Data), FlowMeta: raw.FlowMeta}
	if n.FlowMeta == nil {
		n.FlowMeta = raw.FlowMeta2
	}
	if n.FlowMeta == nil {
		n.FlowMeta = map[string]any{}
	}
	return nil
}

// UnmarshalJSON reads an edge, accepting edgeMeta for edge_meta.
func (e *Edge) UnmarshalJSON(b []byte) error {
	type plain Edge
	var raw struct {
		plain
		EdgeMeta2 map[string]any `json:"edgeMeta"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*e = Edge(raw.plain)
	if e.EdgeMeta == nil {
		e.EdgeMeta = raw.EdgeMeta2
	}
	if e.EdgeMeta == nil {
		e.EdgeMeta = map[string]any{}
	}
	if e.Type == "" {
		e.Type = EdgeType
	}
	return nil
}

// canonicalData rewrites the snake_case spelling of each known field to camelCase (the
// camelCase key wins when both are sent) and never answers nil.
func canonicalData(d Data) Data {
	out := Data{}
	for k, v := range d {
		out[k] = v
	}
	for _, f := range knownFields {
		snake := snakeCase(f)
		if snake == f {
			continue
		}
		if v, ok := out[snake]; ok {
			if _, has := out[f]; !has {
				out[f] = v
			}
			delete(out, snake)
		}
	}
	return out
}

func snakeCase(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Canonical answers the graph with every node's data in its one written form, and nil maps
// and slices made empty, so two equal graphs marshal to the same bytes.
func Canonical(g Graph) Graph {
	out := Graph{Nodes: make([]Node, 0, len(g.Nodes)), Edges: make([]Edge, 0, len(g.Edges)), Fields: g.Fields}
	for _, n := range g.Nodes {
		n.Data = canonicalData(n.Data)
		if k, ok := ParseKind(string(n.Type)); ok {
			n.Type = k
		}
		if n.FlowMeta == nil {
			n.FlowMeta = map[string]any{}
		}
		out.Nodes = append(out.Nodes, n)
	}
	for _, e := range g.Edges {
		if e.EdgeMeta == nil {
			e.EdgeMeta = map[string]any{}
		}
		if e.Type == "" {
			e.Type = EdgeType
		}
		out.Edges = append(out.Edges, e)
	}
	return out
}

// Parse reads a graph from JSON.
func Parse(b []byte) (Graph, error) {
	var g Graph
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&g); err != nil {
		return Graph{}, err
	}
	return Canonical(g), nil
}

// Clone answers a deep copy of the graph (through JSON: data values are JSON values).
func Clone(g Graph) Graph {
	b, err := json.Marshal(g)
	if err != nil {
		panic(err) // a Graph holds only JSON values
	}
	c, err := Parse(b)
	if err != nil {
		panic(err)
	}
	return c
}

func handle(e Edge) string {
	if e.SourceHandle == nil {
		return ""
	}
	return *e.SourceHandle
}
