package workflow

import (
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/nyaruka/phonenumbers"
)

// Type is a workflow's direction.
type Type string

const (
	Inbound  Type = "inbound"
	Outbound Type = "outbound"
)

// Violation is one broken rule: where (Field, see the package doc), which rule, and what to do,
// in words people read.
type Violation struct {
	Field   string `json:"field"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
	order   int
}

// Webhook methods.
var Methods = []string{"GET", "POST", "PUT", "PATCH", "DELETE"}

// Lifecycle stages a lifecycle-stage node may set.
var Stages = []string{"subscriber", "lead", "marketing lead", "sales lead", "opportunity", "customer", "evangelist", "other"}

// Contact sources.
var Sources = []string{"csv", "hubspot", "zapier"}

// Check answers the hard rules a saved graph obeys (see the package doc), at most one per node.
func Check(g Graph, typ Type) []Violation {
	v := newViolations(g)
	v.structure(g, typ)
	if len(v.list) > 0 {
		return v.sorted() // the rules below assume a well-formed graph
	}
	v.data(g, false)
	v.cycles(g)
	return v.sorted()
}

// Validate answers what stops the graph from running (see the package doc), at most one per
// node: Check's rules first, then completeness.
func Validate(g Graph, typ Type) []Violation {
	v := newViolations(g)
	v.structure(g, typ)
	if len(v.list) > 0 {
		return v.sorted()
	}
	v.data(g, true)
	v.cycles(g)
	v.paths(g)
	return v.sorted()
}

type violations struct {
	list      []Violation
	nodeOrder map[string]int
	edgeOrder map[string]int
	seen      map[string]bool // node or edge keys already reported
}

func newViolations(g Graph) *violations {
	v := &violations{nodeOrder: map[string]int{}, edgeOrder: map[string]int{}, seen: map[string]bool{}}
	for i, n := range g.Nodes {
		if _, ok := v.nodeOrder[n.ID]; !ok {
			v.nodeOrder[n.ID] = i
		}
	}
	for i, e := range g.Edges {
		if _, ok := v.edgeOrder[e.ID]; !ok {
			v.edgeOrder[e.ID] = len(g.Nodes) + i
		}
	}
	return v
}

func (v *violations) node(id, field, rule, msg string) {
	if v.seen["n:"+id] {
		return
	}
	v.seen["n:"+id] = true
	name := fmt.Sprintf("nodes[%s]", id)
	if field != "" {
		name += "." + field
	}
	v.list = append(v.list, Violation{Field: name, Rule: rule, Message: msg, order: v.nodeOrder[id]})
}

func (v *violations) edge(id, field, rule, msg string) {
	if v.seen["e:"+id] {
		return
	}
	v.seen["e:"+id] = true
	v.list = append(v.list, Violation{Field: fmt.Sprintf("edges[%s].%s", id, field), Rule: rule, Message: msg, order: v.edgeOrder[id]})
}

func (v *violations) graph(rule, msg string) {
	if v.seen["graph"] {
		return
	}
	v.seen["graph"] = true
	v.list = append(v.list, Violation{Field: "nodes", Rule: rule, Message: msg, order: -1})
}

func (v *violations) sorted() []Violation {
	sort.SliceStable(v.list, func(i, j int) bool { return v.list[i].order < v.list[j].order })
	if v.list == nil {
		return []Violation{}
	}
	return v.list
}

func (v *violations) structure(g Graph, typ Type) {
	ids := map[string]bool{}
	for _, n := range g.Nodes {
		switch {
		case n.ID == "":
			v.graph("node-id-missing", "Every node needs an id.")
		case ids[n.ID]:
			v.node(n.ID, "id", "node-id-duplicate", "Another node has the same id.")
		}
		ids[n.ID] = true
		if _, ok := ParseKind(string(n.Type)); !ok {
			v.node(n.ID, "type", "node-type-unknown", fmt.Sprintf("%q is not a node kind.", n.Type))
		}
	}
	edgeIDs := map[string]bool{}
	hasIn := map[string]bool{}
	for _, e := range g.Edges {
		switch {
		case e.ID == "" || edgeIDs[e.ID]:
			v.edge(e.ID, "id", "edge-id-duplicate", "Every edge needs an id of its own.")
		case !ids[e.Source]:
			v.edge(e.ID, "source", "edge-source-unknown", fmt.Sprintf("No node has the id %q.", e.Source))
		case !ids[e.Target]:
			v.edge(e.ID, "target", "edge-target-unknown", fmt.Sprintf("No node has the id %q.", e.Target))
		case e.Source == e.Target:
			v.edge(e.ID, "target", "edge-self-loop", "An edge cannot join a node to itself.")
		}
		edgeIDs[e.ID] = true
		hasIn[e.Target] = true
	}
	if len(g.Nodes) == 0 {
		return
	}
	starts, contacts := 0, 0
	for _, n := range g.Nodes {
		switch n.Type {
		case Start:
			starts++
			if starts > 1 {
				v.node(n.ID, "type", "start-duplicate", "A workflow has exactly one Start node.")
			} else if hasIn[n.ID] {
				v.node(n.ID, "", "start-has-incoming", "Nothing can lead into the Start node.")
			}
		case Contacts:
			contacts++
			switch {
			case typ == Inbound:
				v.node(n.ID, "type", "contacts-inbound", "An inbound workflow has no Contacts node: its calls come in.")
			case contacts > 1:
				v.node(n.ID, "type", "contacts-duplicate", "A workflow has at most one Contacts node.")
			case hasIn[n.ID]:
				v.node(n.ID, "", "contacts-has-incoming", "Nothing can lead into the Contacts node.")
			}
		}
	}
	if starts == 0 {
		v.graph("start-missing", "A workflow needs a Start node.")
	}
}

// data checks each node's fields; complete also wants the fields a run needs.
func (v *violations) data(g Graph, complete bool) {
	kinds := kindsOf(g)
	for _, n := range g.Nodes {
		d := n.Data
		if f, msg, bad := badData(n); bad {
			v.node(n.ID, f, "data-invalid", msg)
			continue
		}
		if n.Type == ConditionalPath {
			for _, e := range outgoing(g, n.ID) {
				if kinds[e.Target] != CustomerResponse {
					v.node(n.ID, "", "branch-not-customer-response", "Each path of a Conditional Path leads to a Customer Response.")
					break
				}
			}
		}
		if !complete {
			continue
		}
		switch n.Type {
		case Agent:
			if strings.TrimSpace(d.String(FieldInstruction)) == "" {
				v.node(n.ID, FieldInstruction, "instruction-missing", "No Agent Response: say what the agent says or does.")
			}
		case CustomerResponse:
			if strings.TrimSpace(d.String(FieldDescription)) == "" {
				v.node(n.ID, FieldDescription, "description-missing", "No Customer Response: describe what the customer says on this path.")
			}
		case ForwardCall:
			if d.String(FieldDestination) == "" {
				v.node(n.ID, FieldDestination, "destination-missing", "No destination numbers found. Add a valid number to run your workflow.")
			}
		case Webhook:
			if d.String(FieldWebhookURL) == "" {
				v.node(n.ID, FieldWebhookURL, "webhook-url-missing", "A webhook needs an http or https URL.")
			} else if d.String(FieldMethod) == "" {
				v.node(n.ID, FieldMethod, "webhook-method-missing", "A webhook needs a method.")
			}
		case LifecycleStage:
			if d.String(FieldStage) == "" {
				v.node(n.ID, FieldStage, "stage-missing", "Choose the lifecycle stage to set.")
			}
		case Contacts:
			if d.String(FieldSource) == "" {
				v.node(n.ID, FieldSource, "source-missing", "No contact source added. Please add a contact source to run your workflow.")
			}
		}
	}
}

// badData answers the first malformed field of the node: a value that is set but wrong.
func badData(n Node) (field, msg string, bad bool) {
	d := n.Data
	for _, f := range []string{FieldNodeLabel, FieldInstruction, FieldSay, FieldDescription, FieldDestination, FieldStage, FieldSource, FieldWebhookURL, FieldMethod} {
		if x, ok := d[f]; ok && x != nil {
			if _, isString := x.(string); !isString {
				return f, "This field is text.", true
			}
		}
	}
	if p := d.String(FieldDestination); p != "" && !ValidE164(p) {
		return FieldDestination, "Add a valid number to run your workflow: an E.164 number such as +14155550123.", true
	}
	if s := d.String(FieldStage); s != "" && !contains(Stages, s) {
		return FieldStage, "Choose one of: " + strings.Join(Stages, ", ") + ".", true
	}
	if s := d.String(FieldSource); s != "" && !contains(Sources, s) {
		return FieldSource, "The contact source is csv, hubspot or zapier.", true
	}
	if u := d.String(FieldWebhookURL); u != "" {
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return FieldWebhookURL, "A webhook URL is an absolute http or https URL.", true
		}
	}
	m := d.String(FieldMethod)
	if m != "" && !contains(Methods, m) {
		return FieldMethod, "The method is one of GET, POST, PUT, PATCH, DELETE.", true
	}
	if wd, ok := d[FieldWebhookData]; ok && wd != nil {
		obj, isObj := wd.(map[string]any)
		if !isObj {
			return FieldWebhookData, "webhookData is an object with params, headers and body.", true
		}
		for _, k := range []string{"params", "headers"} {
			if x, ok := obj[k]; ok && x != nil {
				kv, isObj := x.(map[string]any)
				if !isObj {
					return FieldWebhookData + "." + k, "This is an object of names to text values.", true
				}
				for _, val := range kv {
					if _, isString := val.(string); !isString {
						return FieldWebhookData + "." + k, "Each value is text.", true
					}
				}
			}
		}
		if body, ok := obj["body"]; ok && body != nil && m == "GET" {
			if b, isObj := body.(map[string]any); !isObj || len(b) > 0 {
				return FieldWebhookData + ".body", "A GET request has no body.", true
			}
		}
	}
	return "", "", false
}

// ValidE164 reports whether s is a valid phone number written in E.164.
func ValidE164(s string) bool {
	if len(s) < 8 || len(s) > 16 || s[0] != '+' || s[1] == '0' {
		return false
	}
	for _, r := range s[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	num, err := phonenumbers.Parse(s, "")
	if err != nil {
		return false
	}
	return phonenumbers.IsValidNumber(num) && phonenumbers.Format(num, phonenumbers.E164) == s
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// cycles reports each cycle that does not pass through a customer-response node, on its first
// node in input order.
func (v *violations) cycles(g Graph) {
	kinds := kindsOf(g)
	adj := map[string][]string{}
	for _, e := range g.Edges {
		if kinds[e.Source] == CustomerResponse || kinds[e.Target] == CustomerResponse {
			continue
		}
		adj[e.Source] = append(adj[e.Source], e.Target)
	}
	for _, scc := range components(g, adj) {
		if len(scc) < 2 {
			continue
		}
		first := scc[0]
		for _, id := range scc {
			if v.nodeOrder[id] < v.nodeOrder[first] {
				first = id
			}
		}
		v.node(first, "", "cycle", "This loop never listens to the customer: a flow may only go back through a Customer Response.")
	}
}

// components answers the strongly connected components of adj over the graph's nodes
// (Tarjan's algorithm, iterating nodes in input order).
func components(g Graph, adj map[string][]string) [][]string {
	index := map[string]int{}
	low := map[string]int{}
	on := map[string]bool{}
	var stack []string
	var out [][]string
	next := 0
	var visit func(string)
	visit = func(u string) {
		index[u], low[u] = next, next
		next++
		stack = append(stack, u)
		on[u] = true
		for _, w := range adj[u] {
			if _, seen := index[w]; !seen {
				visit(w)
				low[u] = min(low[u], low[w])
			} else if on[w] {
				low[u] = min(low[u], index[w])
			}
		}
		if low[u] == index[u] {
			var scc []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				scc = append(scc, w)
				if w == u {
					break
				}
			}
			out = append(out, scc)
		}
	}
	for _, n := range g.Nodes {
		if _, seen := index[n.ID]; !seen {
			visit(n.ID)
		}
	}
	return out
}

// paths checks that every node is reachable from start and that every path ends.
func (v *violations) paths(g Graph) {
	var start string
	for _, n := range g.Nodes {
		if n.Type == Start {
			start = n.ID
			break
		}
	}
	if start == "" {
		v.graph("start-missing", "A workflow needs a Start node.")
		return
	}
	out := map[string][]string{}
	in := map[string][]string{}
	for _, e := range g.Edges {
		out[e.Source] = append(out[e.Source], e.Target)
		in[e.Target] = append(in[e.Target], e.Source)
	}
	reach := walk(start, out)
	var terminals []string
	for _, n := range g.Nodes {
		if n.Type == EndCall || n.Type == ForwardCall {
			terminals = append(terminals, n.ID)
		}
	}
	ends := map[string]bool{}
	for _, t := range terminals {
		for id := range walk(t, in) {
			ends[id] = true
		}
	}
	for _, n := range g.Nodes {
		switch {
		case n.Type == Contacts || n.Type == Invisible:
		case (n.Type == EndCall || n.Type == ForwardCall) && len(out[n.ID]) > 0:
			v.node(n.ID, "", "step-after-end", "Nothing can follow an End Call or a Forward Call: the call is over.")
		case !reach[n.ID]:
			v.node(n.ID, "", "unreachable", "No path from Start leads here: connect this step to the flow.")
		case len(out[n.ID]) == 0 && n.Type != EndCall && n.Type != ForwardCall:
			v.node(n.ID, "", "dead-end", "This path does not end: connect it to an End Call or a Forward Call.")
		case !ends[n.ID]:
			v.node(n.ID, "", "never-ends", "No path from here reaches an End Call or a Forward Call.")
		}
	}
}

func walk(from string, adj map[string][]string) map[string]bool {
	seen := map[string]bool{from: true}
	queue := []string{from}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, w := range adj[u] {
			if !seen[w] {
				seen[w] = true
				queue = append(queue, w)
			}
		}
	}
	return seen
}

// Prepare is what a save does: it checks the graph's structure, normalises it, then checks the
// hard rules on the normalised graph. Violations mean the save is refused; otherwise the
// normalised graph is stored and the changes reported back.
func Prepare(g Graph, typ Type) (Graph, []Change, []Violation) {
	v := newViolations(g)
	v.structure(g, typ)
	if len(v.list) > 0 {
		return Graph{}, nil, v.sorted()
	}
	norm, changes := Normalize(g)
	if errs := Check(norm, typ); len(errs) > 0 {
		return Graph{}, nil, errs
	}
	fields := CleanPostCallFields(g.Fields)
	if errs := CheckPostCallFields(fields); len(errs) > 0 {
		return Graph{}, nil, errs
	}
	norm.Fields = fields
	if changes == nil {
		changes = []Change{}
	}
	return norm, changes, nil
}
