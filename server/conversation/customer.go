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
	// Seed varies the customers of a job: the same seed, persona and words always answer the
	// same reply.
	Seed int64
	// DoNotCallRate is the share of personas without a stated wish (a job's contacts) who
	// ask not to be called again at their first answer (default 0.05; negative: never).
	DoNotCallRate float64
}

// Customer is the local simulated customer (phones.Customer): it answers the agent following
// a persona — a test run's customerDescription, or a job contact's fields. Deterministic:
// the answer depends only on the seed, the persona and what the agent said.
//
// The persona is read for a few traits, in this order: quoted lines ("says \"I want to
// cancel\"") are said as written, the one most like the agent's words first; asking not to be
// called again ("do not call", "remove", "stop calling" …); silence ("silent", "says
// nothing"); wanting a person ("human", "manager", "representative"); being busy ("busy",
// "call back", "later"); asking about price ("price", "cost"); then a disposition, negative
// ("not interested", "declines", "angry") or positive ("interested", "agrees", "happy"). A
// persona with none of these (a job's contact) gets a disposition drawn from the seed: about
// half say yes, a third no, the rest ask a question or are busy; DoNotCallRate of them ask not
// to be called again.
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

var personaQuote = regexp.MustCompile(`["“]([^"”]{2,})["”]`)

var replies = map[trait][]string{
	traitDoNotCall: {"Please don't call me again.", "Remove me from your list and stop calling me.", "I'm not interested. Don't call me again."},
	traitHuman:     {"Can I talk to a real person, please?", "I'd rather speak to a human representative.", "Please put me through to a manager."},
	traitBusy:      {"I'm busy right now, can you call me back later?", "Sorry, I don't have time now. Call back tomorrow.", "This isn't a good time, please call back later."},
	traitPrice:     {"How much does it cost?", "What's the price?", "Is it expensive? What does it cost per month?"},
	traitNegative:  {"No, I'm not interested.", "No thanks.", "Nope, not for me."},
	traitPositive:  {"Yes, I'm interested.", "Yes please, that sounds good.", "Sure, absolutely."},
}

// statement answers a line that asked nothing.
var statement = map[bool][]string{
	true:  {"Okay, thank you.", "Alright, great.", "I see, thanks."},
	false: {"Okay.", "Hmm, I see.", "Right."},
}

// Reply answers what the agent just said. heard is everything the agent said on the call so
// far, in order (phones/sim passes the whole call), its last line being the one just said:
// the customer answers that line, and the number of questions asked before varies the answer,
// so a customer asked the same question twice does not always answer the same.
func (c *Customer) Reply(ctx context.Context, persona string, heard []string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	last := ""
	if len(heard) > 0 {
		last = heard[len(heard)-1]
	}
	asked := 0 // questions the agent asked before its last line
	for _, l := range heard[:max(len(heard)-1, 0)] {
		if strings.Contains(l, "?") {
			asked++
		}
	}
	h := c.hash(persona, strings.Join(heard, "\n"))
	if qs := personaQuote.FindAllStringSubmatch(persona, -1); len(qs) > 0 {
		best, score := qs[0][1], -1.0
		for _, q := range qs {
			if s := llm.Similarity(last, q[1]); s > score {
				best, score = q[1], s
			}
		}
		return best, nil
	}
	t := c.trait(persona)
	if t == traitSilent {
		return "", nil
	}
	if strings.Contains(strings.ToLower(last), "are you still there") {
		return "Yes, I'm here.", nil
	}
	if t == traitDoNotCall {
		return pick(replies[traitDoNotCall], h), nil
	}
	if !strings.Contains(last, "?") {
		return pick(statement[t != traitNegative], h), nil
	}
	if (t == traitHuman || t == traitBusy || t == traitPrice) && asked > 0 {
		// asked again, the customer answers the question: mostly yes, sometimes no
		if h%3 == 2 {
			return pick(replies[traitNegative], h>>8), nil
		}
		return pick(replies[traitPositive], h>>8), nil
	}
	return pick(replies[t], h), nil
}

// trait is the persona's first trait; a persona without one draws it from the seed.
func (c *Customer) trait(persona string) trait {
	for _, tw := range traitWords {
		if tw.re.MatchString(persona) {
			return tw.t
		}
	}
	u := float64(c.hash(persona, "")%10000) / 10000
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

func (c *Customer) hash(persona, agent string) uint64 {
	f := fnv.New64a()
	var seed [8]byte
	binary.LittleEndian.PutUint64(seed[:], uint64(c.o.Seed))
	_, _ = f.Write(seed[:])
	_, _ = f.Write([]byte(persona))
	_, _ = f.Write([]byte{0})
	_, _ = f.Write([]byte(agent))
	return f.Sum64()
}

func pick(list []string, h uint64) string { return list[h%uint64(len(list))] }
