package conversation

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/bettyhq/betty/server/conversation/timing"
	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/workflow"
)

// graph is a workflow graph indexed for the walk: each node's next steps resolved through
// invisible placeholders and ordered as the readable prompt orders them (left to right as
// drawn: by x, then id).
type graph struct {
	nodes map[string]workflow.Node
	next  map[string][]string
	start string
}

func index(wg workflow.Graph) *graph {
	g := &graph{nodes: make(map[string]workflow.Node, len(wg.Nodes)), next: map[string][]string{}}
	for _, n := range wg.Nodes {
		if k, ok := workflow.ParseKind(string(n.Type)); ok {
			n.Type = k
		}
		g.nodes[n.ID] = n
		if n.Type == workflow.Start && g.start == "" {
			g.start = n.ID
		}
	}
	out := map[string][]string{}
	for _, e := range wg.Edges {
		if _, ok := g.nodes[e.Target]; ok {
			out[e.Source] = append(out[e.Source], e.Target)
		}
	}
	var resolve func(id string, seen map[string]bool) []string
	resolve = func(id string, seen map[string]bool) []string {
		if g.nodes[id].Type != workflow.Invisible {
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
	for src, targets := range out {
		var r []string
		seen := map[string]bool{}
		for _, t := range targets {
			for _, x := range resolve(t, map[string]bool{}) {
				if !seen[x] {
					seen[x] = true
					r = append(r, x)
				}
			}
		}
		sort.SliceStable(r, func(i, j int) bool {
			a, b := g.nodes[r[i]], g.nodes[r[j]]
			if a.Position.X != b.Position.X {
				return a.Position.X < b.Position.X
			}
			return a.ID < b.ID
		})
		g.next[src] = r
	}
	return g
}

// walk is one event's walk of the graph: it changes st and collects actions.
type walk struct {
	e       *Engine
	s       Setup
	g       *graph
	st      *state
	prof    Profile
	actions []Action
	// early counts the actions handed to Setup.SpeakNow: the Says that begin actions.
	early int
}

func (w *walk) offset() time.Duration { return time.Duration(w.st.Clock) * time.Millisecond }

// say adds the agent's words: a Say action and a turn on the call's clock. A Say that begins
// the actions goes to Setup.SpeakNow at once when the driver asked for early speech.
func (w *walk) say(text string) {
	text = clean(text)
	if text == "" {
		return
	}
	act := Action{Kind: Say, Text: text, Voice: w.prof.Voice}
	if w.s.SpeakNow != nil && w.early == len(w.actions) {
		act.Spoken = true
		w.early++
		w.s.SpeakNow(act)
	}
	w.actions = append(w.actions, act)
	w.st.Turns = append(w.st.Turns, turn{Speaker: "agent", Text: text, Offset: w.st.Clock})
	w.st.Clock = timing.Next(w.offset(), text).Milliseconds()
	w.st.LastHeard = ""
}

func (w *walk) listen() {
	w.st.Waiting = true
	w.st.Listens++
	w.actions = append(w.actions, Action{Kind: Listen})
}

func (w *walk) hangup() {
	w.st.Ended, w.st.Node, w.st.Branches = true, "", nil
	w.actions = append(w.actions, Action{Kind: Hangup})
}

func (w *walk) step(nodeID, kind string, status StepStatus, detail string) {
	w.st.Steps = append(w.st.Steps, Step{NodeID: nodeID, Kind: kind, Status: status, Detail: detail, Offset: w.offset()})
}

// maxPath bounds the path a call keeps (a flow looping through a Customer Response keeps its
// latest steps).
const maxPath = 400

// enter records that the call is on node id now: added to the path unless it is there last
// already (a Customer Response that waited for words is entered once).
func (w *walk) enter(id string) {
	p := w.st.Path
	if len(p) > 0 && p[len(p)-1] == id {
		return
	}
	if len(p) >= maxPath {
		p = append(p[:0:0], p[len(p)-maxPath+1:]...)
	}
	w.st.Path = append(p, id)
}

// move goes on from a node: to its one next step; among several, to a choice when some are
// customer responses (the customer's words choose), else to the first as drawn.
func (w *walk) move(from string) {
	nx := w.g.next[from]
	var responses []string
	for _, id := range nx {
		if w.g.nodes[id].Type == workflow.CustomerResponse {
			responses = append(responses, id)
		}
	}
	switch {
	case len(nx) == 0:
		w.st.Node = ""
	case len(nx) > 1 && len(responses) > 0:
		w.st.Node, w.st.Branches = "", responses
	default:
		w.st.Node = nx[0]
	}
}

// advance walks from st.Node until the agent must listen or the call ends.
func (w *walk) advance(ctx context.Context) {
	st := w.st
	for i := 0; ; i++ {
		if i == maxStepsPerEvent {
			w.step(st.Node, "limit", StepFailed, "The flow went through too many steps without listening; the call ends.")
			w.say(closingLine)
			w.hangup()
			return
		}
		if len(st.Branches) > 0 {
			if st.Pending == "" {
				w.listen()
				return
			}
			w.choose(ctx)
			continue
		}
		n, ok := w.g.nodes[st.Node]
		if ok {
			w.enter(n.ID)
		}
		if !ok {
			w.step(st.Node, "end", StepDone, "The flow has no next step: the call ends.")
			w.say(closingLine)
			w.hangup()
			return
		}
		switch n.Type {
		case workflow.Start, workflow.Invisible, workflow.Contacts:
			w.move(n.ID)
		case workflow.Agent:
			w.agent(ctx, n)
			w.move(n.ID)
		case workflow.ConditionalPath:
			w.move(n.ID) // its branches are customer responses: the customer's words choose
		case workflow.CustomerResponse:
			switch {
			case st.Consumed:
				st.Consumed = false
			case st.Pending != "":
				st.Pending = ""
			default:
				w.listen()
				return
			}
			w.move(n.ID)
		case workflow.Webhook:
			w.webhook(ctx, n)
			w.move(n.ID)
		case workflow.LifecycleStage:
			w.lifecycle(ctx, n)
			w.move(n.ID)
		case workflow.DataAccess:
			st.Record = true
			w.step(n.ID, string(n.Type), StepDone, "The contact's record is available to the agent from here on.")
			w.move(n.ID)
		case workflow.EndCall:
			w.step(n.ID, string(n.Type), StepDone, "End Call.")
			w.say(w.answeringFirst(ctx, w.line(n)))
			w.hangup()
			return
		case workflow.ForwardCall:
			to := n.Data.String(workflow.FieldDestination)
			if !workflow.ValidE164(to) {
				w.step(n.ID, string(n.Type), StepFailed, fmt.Sprintf("Forward Call has no valid destination number (%q): the call ends instead.", to))
				w.say("I'm sorry, I can't transfer you right now. Someone will get back to you. Goodbye.")
				w.hangup()
				return
			}
			w.step(n.ID, string(n.Type), StepDone, "Forwarded to "+to+".")
			w.say(w.answeringFirst(ctx, w.line(n)))
			st.Ended, st.Node, st.ForwardedTo = true, "", to
			w.actions = append(w.actions, Action{Kind: Transfer, To: to})
			return
		default:
			w.step(n.ID, string(n.Type), StepSkipped, fmt.Sprintf("%q is not a step this server can run.", n.Type))
			w.move(n.ID)
		}
	}
}

// Lines of the steps that have no spoken line of their own (and no quoted line in their
// instruction) when the local back-end speaks.
const (
	closingLine  = "Thank you for your time. Goodbye."
	transferLine = "Please hold while I transfer your call."
)

// line is the spoken line of an Agent, End Call or Forward Call step, placeholders filled: the
// line its author wrote (workflow.Line: its `say`, else the lines its instruction quotes);
// else a neutral line: built from the label for an Agent step (llm.Neutral), a goodbye for an
// End Call, "Please hold" for a Forward Call.
func (w *walk) line(n workflow.Node) string {
	if s := strings.TrimSpace(w.fillLine(workflow.Line(n))); s != "" {
		return s
	}
	switch n.Type {
	case workflow.EndCall:
		return closingLine
	case workflow.ForwardCall:
		return transferLine
	}
	return llm.Neutral(w.fill(n.Data.String(workflow.FieldNodeLabel)), w.prof.Name)
}

var salutedBlank = regexp.MustCompile(`(?i)\b(hi|hello|hey|dear|thanks|thank you|bye|goodbye|see you)\s*,?\s*\{\{\s*([A-Za-z0-9_.\-]+)\s*\}\}`)

// fillLine fills a spoken line's placeholders without saying a blank: a name the contact does
// not have is left out after a salutation ("Hi {{firstName}}, this is Linda." → "Hi, this is
// Linda."), and any other sentence with a placeholder that has no value ("Its status is
// {{orderStatus}}.") is not said. "" when nothing is left.
func (w *walk) fillLine(text string) string {
	if !strings.Contains(text, "{{") {
		return text
	}
	v := w.vars()
	text = salutedBlank.ReplaceAllStringFunc(text, func(m string) string {
		sub := salutedBlank.FindStringSubmatch(m)
		if v[strings.ToLower(sub[2])] == "" {
			return sub[1]
		}
		return m
	})
	var kept []string
	for _, s := range sentences(text) {
		blank := false
		for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
			if strings.TrimSpace(v[strings.ToLower(m[1])]) == "" {
				blank = true
			}
		}
		if !blank {
			kept = append(kept, w.fill(s))
		}
	}
	return strings.Join(kept, " ")
}

// sentences splits text after each ".", "!" or "?" that a space follows.
func sentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		if (text[i] == '.' || text[i] == '!' || text[i] == '?') && i+1 < len(text) && text[i+1] == ' ' {
			out = append(out, strings.TrimSpace(text[start:i+1]))
			start = i + 1
		}
	}
	if rest := strings.TrimSpace(text[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

// choose picks the branch the customer's pending words mean. The graph decides what is on
// offer and the model only picks among it, by a tool call: choose_branch names an option by
// its number; end_call and transfer_call are offered only when exactly one branch leads (before
// the next listen) to an End Call or a Forward Call step, and calling them takes that branch,
// whose step then ends or forwards the call as the flow says. A model that answers text, calls
// nothing it was offered or names no option falls back to the lexical choice.
func (w *walk) choose(ctx context.Context) {
	st := w.st
	descs := make([]string, len(st.Branches))
	for i, id := range st.Branches {
		n := w.g.nodes[id]
		descs[i] = firstNonEmpty(strings.TrimSpace(n.Data.String(workflow.FieldDescription)), n.Data.String(workflow.FieldNodeLabel))
	}
	asked := ""
	for i := len(st.Turns) - 1; i >= 0; i-- {
		if st.Turns[i].Speaker == "agent" {
			asked = st.Turns[i].Text
			break
		}
	}
	choice, how := -1, ""
	if w.e.d.Model.Name() != w.e.local.Name() { // the local back-end's choice is the lexical one
		tools, takes := w.branchTools(len(descs))
		req := llm.Request{Task: llm.TaskChoose, Messages: chooseMessages(asked, st.Pending, descs), Tools: tools,
			Brief: llm.Brief{CustomerSaid: st.Pending, Choices: descs}, MaxTokens: 100}
		mctx, cancel := context.WithTimeout(ctx, modelWait)
		r, err := w.e.d.Model.Chat(mctx, req, nil)
		cancel()
		if err != nil {
			w.e.d.Log.Warn("conversation: the language model could not choose a branch; lexical choice used", "err", err)
		} else if choice, how = pickTool(r.ToolCalls, len(descs), takes); choice >= 0 {
			how = "the language model, " + w.e.d.Model.Name() + ", " + how
		} else {
			w.e.d.Log.Info("conversation: the language model named no branch; lexical choice used", "text", clip(r.Text, 200), "calls", len(r.ToolCalls))
		}
	}
	if choice < 0 {
		choice, how = llm.Choose(st.Pending, descs), "lexical similarity"
	}
	if choice < 0 && llm.AsksToKnow(st.Pending) {
		if choice = questionBranch(descs); choice >= 0 {
			how = "a question, which this branch is for"
		} else {
			w.answerBeforeChoosing(ctx, asked)
			return
		}
	}
	if choice < 0 {
		choice, how = 0, "no branch matched; the first as drawn"
	}
	chosen := st.Branches[choice]
	w.step(chosen, "branch", StepDone, fmt.Sprintf("%q chose %q (%s).", st.Pending, descs[choice], how))
	st.Node, st.Branches, st.Pending, st.Consumed = chosen, nil, "", true
}

// answerBeforeChoosing answers a question the customer asked where the flow waits for an answer
// that none of its branches is about ("Is it expensive?" to "Can you still make it?"): from the
// knowledge base or FAQ, or an honest "I don't know", then the agent's question again; the
// flow still waits at its choice. (A question a branch is about takes that branch.)
func (w *walk) answerBeforeChoosing(ctx context.Context, asked string) {
	st := w.st
	line := w.answerAside(ctx, st.Pending)
	if q := lastQuestion(asked); q != "" {
		line += " " + q
	}
	st.Pending = ""
	w.say(line)
}

// answeringFirst is line with, before it, the answer to a question for information the
// customer just asked: an End Call or a Forward Call step says its line, but the customer's
// "… and how long does a refund take?" is not left unanswered.
func (w *walk) answeringFirst(ctx context.Context, line string) string {
	if q := w.st.LastHeard; llm.AsksToKnow(q) {
		return w.answerAside(ctx, q) + " " + line
	}
	return line
}

// answerAside is the answer to a question the flow has no Agent step to answer: the best FAQ
// or knowledge answer, else llm.DontKnow; the call's steps keep which.
func (w *walk) answerAside(ctx context.Context, question string) string {
	found := w.findAnswers(ctx, question, "")
	if len(found) == 0 {
		w.step("", "question", StepDone, fmt.Sprintf("Nothing answers %q: the agent said so.", question))
		return llm.DontKnow
	}
	w.step("", "question", StepDone, fmt.Sprintf("%q answered from %s.", question, found[0].Cited()))
	return found[0].Spoken
}

var questionWords = regexp.MustCompile(`(?i)\b(asks?|question|questions|enquir\w*|inquir\w*|wants to know)\b`)

// questionBranch is the branch that takes the customer's questions ("Asks a question or says
// what they need"), -1 when none does.
func questionBranch(descs []string) int {
	for i, d := range descs {
		if questionWords.MatchString(d) {
			return i
		}
	}
	return -1
}

// lastQuestion is the last sentence of text that asks something ("" when none does).
func lastQuestion(text string) string {
	ss := sentences(text)
	for i := len(ss) - 1; i >= 0; i-- {
		if strings.HasSuffix(ss[i], "?") {
			return ss[i]
		}
	}
	return ""
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// clean trims words to one line and bounds them (a turn is speech, not a document).
func clean(s string) string {
	s = oneLine(s)
	if len(s) > 2000 {
		s = s[:2000]
	}
	return s
}
