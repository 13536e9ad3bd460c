package conversation

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"regexp"
	"strings"

	"github.com/bettyhq/betty/server/llm"
	"github.com/bettyhq/betty/server/phones"
)

// CustomerOptions configure the simulated customer.
type CustomerOptions struct {
	// Seed varies the customers of a job: the same seed, persona and call always answer the
	// same reply.
	Seed int64
	// DoNotCallRate is the share of personas without a stated wish (a job's contacts) who
	// ask not to be called again at their first answer (default 0.05; negative: never).
	DoNotCallRate float64
}

// Customer is the local simulated customer (phones.Customer): it answers the agent following
// a persona — a test run's customerDescription, or one drawn for a job's contact (Personas).
// Deterministic: the answer depends only on the seed, the persona and the call so far.
//
// The persona is read as a person would read a brief (readPersona):
//   - quoted lines ("says \"I want to cancel\"") are said as written, each once, the one most
//     like the agent's words first (a persona of quotes alone repeats them: "says \"yes\" to
//     everything");
//   - questions the person has ("wants to know the opening hours", "asks whether you deliver
//     on Sundays", "asks about the price", a quoted line ending in "?") are asked when the
//     agent invites them ("How can I help?", "Any questions?", before the quoted lines), has
//     just answered the previous one, or asks a yes-or-no question first ("Yes, sure. And …?");
//   - details (an e-mail address, a phone number, a day or time, an order number, a name, a
//     rating) are given when the agent asks for them, several at once when it asks for several
//     ("your name, your number and a short message"), and never made up when the persona has
//     none; they are read from what the persona says of the person, not from its questions;
//   - traits, the first that applies: asking not to be called again, silence, wanting a person,
//     being busy, asking about the price, then a disposition, negative or positive. A persona
//     with questions and no trait is positive; one with neither (a job's contact) draws one
//     from the seed: about half say yes, a third no, the rest ask about the price or are busy;
//     DoNotCallRate of them ask not to be called.
//
// When its questions are answered the person says goodbye; if the agent talks on after that
// with another question, the person answers it once and hangs up.
type Customer struct {
	o CustomerOptions
}

var _ phones.Customer = (*Customer)(nil)

// NewCustomer returns the simulated customer.
func NewCustomer(o CustomerOptions) *Customer {
	if o.DoNotCallRate == 0 {
		o.DoNotCallRate = 0.05
	}
	return &Customer{o: o}
}

type trait int

const (
	traitNone trait = iota
	traitDoNotCall
	traitSilent
	traitHuman
	traitBusy
	traitPrice
	traitNegative
	traitPositive
)

var traitWords = []struct {
	t  trait
	re *regexp.Regexp
}{
	{traitDoNotCall, regexp.MustCompile(`(?i)(do ?n[o']?t (want to be )?call|not (to )?be called|stop calling|remove|do-not-call|unsubscribe|never call|no more calls)`)},
	{traitSilent, regexp.MustCompile(`(?i)(silent|says nothing|never speaks|no answer|mute|quiet)`)},
	{traitHuman, regexp.MustCompile(`(?i)(human|real person|a person|manager|representative|operator|transfer)`)},
	{traitBusy, regexp.MustCompile(`(?i)(busy|call ?back|later|no time|in a hurry)`)},
	{traitPrice, regexp.MustCompile(`(?i)(price|pricing|cost|how much|budget|expensive)`)},
	{traitNegative, regexp.MustCompile(`(?i)(not interested|uninterested|declin|refus|angry|rude|annoyed|skeptic|says no|no thanks|cancel)`)},
	{traitPositive, regexp.MustCompile(`(?i)(interested|agree|happy|keen|eager|friendly|says yes|wants to renew|wants to buy|accept|yes)`)},
}

var replies = map[trait][]string{
	traitDoNotCall: {"Please don't call me again.", "Remove me from your list and stop calling me.", "I'm not interested. Don't call me again."},
	traitHuman:     {"Can I talk to a real person, please?", "I'd rather speak to a human representative.", "Please put me through to a manager."},
	traitBusy:      {"I'm busy right now, can you call me back later?", "Sorry, I don't have time now. Call back tomorrow.", "This isn't a good time, please call back later."},
	traitPrice:     {"How much does it cost?", "What's the price?", "Is it expensive? What does it cost per month?"},
	traitNegative:  {"No, I'm not interested.", "No, I don't think so.", "No, sorry."},
	traitPositive:  {"Yes, that's fine.", "Yes, sure.", "Yes, absolutely."},
}

// statement answers a line that asked nothing.
var statement = map[bool][]string{
	true:  {"Okay, thank you.", "Alright, great.", "I see, thanks."},
	false: {"Okay.", "Hmm, I see.", "Right."},
}

// goodbyes end the person's side of the call once they have nothing more to ask.
var goodbyes = []string{"Great, that's all I needed. Thank you, goodbye!", "Perfect, thanks for your help. Bye!", "That's everything, thank you. Goodbye."}

// nothingMore answers an invitation to ask when the person has no (more) questions.
var nothingMore = []string{"No, that's all. Thank you, goodbye!", "No, I'm all set. Thanks, bye!", "Nothing else, thanks. Goodbye."}

// Reply answers what the agent just said: call is the call so far as the carrier heard it,
// both sides in order, its last agent line being the one to answer.
func (c *Customer) Reply(ctx context.Context, persona string, call []phones.SpokenTurn) (phones.CustomerReply, error) {
	if err := ctx.Err(); err != nil {
		return phones.CustomerReply{}, err
	}
	p := readPersona(persona)
	h := c.hash(persona, call)
	me := customerLines(call)
	last := lastAgentLine(call)
	asked := 0 // questions the agent asked before its last line
	for _, t := range call {
		if t.Agent && t.Text != last && strings.Contains(t.Text, "?") {
			asked++
		}
	}
	say := func(s string) (phones.CustomerReply, error) { return phones.CustomerReply{Text: s}, nil }

	if len(p.quotes) > 0 && len(p.questions) == 0 && len(p.details) == 0 {
		return say(bestLine(last, p.quotes))
	}
	t := p.trait
	switch {
	case p.stated:
	case len(p.questions) > 0:
		t = traitPositive // a caller with questions is there to ask them
	default:
		t = c.drawTrait(persona)
	}
	if t == traitSilent {
		return say("")
	}
	if strings.Contains(strings.ToLower(last), "are you still there") {
		return say("Yes, I'm here.")
	}
	if t == traitDoNotCall {
		return say(pick(replies[traitDoNotCall], h))
	}
	if saidAny(me, goodbyes) || saidAny(me, nothingMore) {
		// The person said goodbye and the agent talks on: one short answer, then they hang up.
		r := pick(statement[t != traitNegative], h)
		if isQuestion(last) {
			r = "Sorry, I have to go. Bye."
		}
		return phones.CustomerReply{Text: r, HangUp: true}, nil
	}
	if asked := askedDetails(last); len(asked) > 0 {
		if a, ok := answerDetails(asked, p, t, h); ok {
			return say(a)
		}
		if asked[0] == detailEmail || asked[0] == detailPhone || asked[0] == detailName {
			return say("I'd rather not give that out over the phone.")
		}
	}
	next := unsaid(me, p.questions)
	if invites(last) && len(next) > 0 {
		return say(next[0]) // "How can I help?": what they called about first
	}
	if q := unsaid(me, p.quotes); len(q) > 0 {
		return say(bestLine(last, q))
	}
	if invites(last) {
		return say(pick(nothingMore, h))
	}
	if !isQuestion(last) {
		if len(p.questions) > 0 && len(me) > 0 && isQuestion(me[len(me)-1]) {
			// The agent answered the person's question: the next one, or goodbye.
			if len(next) > 0 {
				return say(pick([]string{"Thanks. ", "Okay, good to know. ", "Great. "}, h) + "And " + lowerFirst(next[0]))
			}
			return say(pick(goodbyes, h))
		}
		if len(next) > 0 && len(me) == 0 {
			return say(next[0]) // the person opens with what they called about
		}
		return say(pick(statement[t != traitNegative], h))
	}
	if (t == traitHuman || t == traitBusy || t == traitPrice) && asked > 0 {
		// asked again, the customer answers the question: mostly yes, sometimes no
		if h%3 == 2 {
			return say(pick(replies[traitNegative], h>>8))
		}
		return say(pick(replies[traitPositive], h>>8))
	}
	if t == traitNone {
		t = traitPositive
	}
	if t == traitPositive && len(next) > 0 && len(me) == 0 {
		// A yes, and what the person wanted to ask anyway ("Yes, sure. And could you tell me
		// how much it costs?").
		return say(pick(replies[t], h) + " And " + lowerFirst(next[0]))
	}
	return say(pick(replies[t], h))
}

// drawTrait is the trait of a persona that states none (a job's contact), drawn from the seed.
func (c *Customer) drawTrait(persona string) trait {
	u := float64(c.hash(persona, nil)%10000) / 10000
	switch {
	case c.o.DoNotCallRate > 0 && u < c.o.DoNotCallRate:
		return traitDoNotCall
	case u < 0.55:
		return traitPositive
	case u < 0.85:
		return traitNegative
	case u < 0.93:
		return traitPrice
	default:
		return traitBusy
	}
}

func (c *Customer) hash(persona string, call []phones.SpokenTurn) uint64 {
	f := fnv.New64a()
	var seed [8]byte
	binary.LittleEndian.PutUint64(seed[:], uint64(c.o.Seed))
	_, _ = f.Write(seed[:])
	_, _ = f.Write([]byte(persona))
	for _, t := range call {
		if t.Agent {
			_, _ = f.Write([]byte{0})
			_, _ = f.Write([]byte(t.Text))
		}
	}
	return f.Sum64()
}

func pick(list []string, h uint64) string { return list[h%uint64(len(list))] }

func lastAgentLine(call []phones.SpokenTurn) string {
	for i := len(call) - 1; i >= 0; i-- {
		if call[i].Agent {
			return call[i].Text
		}
	}
	return ""
}

func customerLines(call []phones.SpokenTurn) []string {
	var out []string
	for _, t := range call {
		if !t.Agent && t.Text != "" {
			out = append(out, t.Text)
		}
	}
	return out
}

// unsaid are the lines of list the person has not said yet on the call (a line counts as said
// when one of their turns holds it).
func unsaid(me, list []string) []string {
	var out []string
	for _, l := range list {
		if !saidAny(me, []string{l}) {
			out = append(out, l)
		}
	}
	return out
}

func saidAny(me, list []string) bool {
	for _, m := range me {
		lm := strings.ToLower(m)
		for _, l := range list {
			if strings.Contains(lm, strings.ToLower(l)) {
				return true
			}
		}
	}
	return false
}

// bestLine is the line most like what the agent said, the first of equals.
func bestLine(agent string, lines []string) string {
	best, score := lines[0], -1.0
	for _, l := range lines {
		if s := llm.Similarity(agent, l); s > score {
			best, score = l, s
		}
	}
	return best
}

func isQuestion(s string) bool { return strings.Contains(s, "?") }

var invitation = regexp.MustCompile(`(?i)(how (can|may|could) I help|what can I do for you|(any|have|got) (other |more |further )?questions|anything else|is there anything|what (would you like|do you want) to know|how can I assist|what brings you)`)

// invites says whether the agent's line invites the person to ask.
func invites(line string) bool { return invitation.MatchString(line) }

func lowerFirst(s string) string {
	if s == "" || strings.HasPrefix(s, "I ") || strings.HasPrefix(s, "I'") {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
