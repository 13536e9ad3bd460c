package pdf

import (
	"context"
	"errors"
	"fmt"
	"runtime"
)

// Budgets of one file. Past one, the file is damaged (ErrDamaged): no document people write
// comes near them, and an attacker's file gets no further.
const (
	// MaxStream bounds what one stream decodes to.
	MaxStream = 64 << 20
	// MaxInflated bounds what all the streams of a file decode to, counted each time one is
	// read: a stream drawn 100,000 times counts 100,000 times.
	MaxInflated = 256 << 20
	// maxToken bounds one string, name, number or keyword.
	maxToken = 1 << 20
	// maxElements bounds the entries of one array or dictionary.
	maxElements = 1 << 18
	// maxStack bounds the operands a content stream stacks up before an operator.
	maxStack = 1 << 16
	// maxDepth bounds arrays and dictionaries nested in one another.
	maxDepth = 100
	// maxObjects bounds the object numbers a file may use, whatever its size; a file may
	// also number no more objects than a quarter of its bytes (objectLimit).
	maxObjects = 1 << 20
	// maxSections bounds the cross-reference sections chained by /Prev.
	maxSections = 256
	// maxTreeDepth bounds the levels of the page tree.
	maxTreeDepth = 64
	// maxMapped bounds the character mappings all the CMaps of a file hold.
	maxMapped = 1 << 18
	// maxFonts bounds the distinct fonts one page (with its forms) loads.
	maxFonts = 128
	// maxFormDepth bounds form XObjects drawn inside one another.
	maxFormDepth = 32
	// maxFilters bounds the filters one stream chains.
	maxFilters = 8
)

// objectLimit bounds the object numbers a file of size bytes may use (they are below it): the
// smallest object takes more than four bytes, even packed in a compressed object stream.
func objectLimit(size int64) int {
	return int(min(max(size/4, 16), maxObjects))
}

// ErrDamaged is a file whose structure cannot be what it says, or that asks more work than
// its budgets allow: a page tree or cross-reference chain that loops, an object stream inside
// itself, a stream decoding past its budget.
var ErrDamaged = errors.New("pdf: damaged file")

// ErrInvalidPassword is a file that needs a password to be read.
var ErrInvalidPassword = errors.New("pdf: password-protected file")

// ErrEncrypted is a file encrypted by a method this reader does not implement.
var ErrEncrypted = errors.New("pdf: encrypted by a method this reader cannot decrypt")

// stop ends all work on a file: its context ended, a budget ran out, or the file cannot be
// read at all. It travels as a panic from wherever the parser is, however deep, to the
// exported method, which answers its error.
type stop struct{ err error }

// malformed is a piece of the file that does not parse: the object, stream or xref section it
// is in is read as missing (or the file repaired), and reading goes on.
type malformed struct{ what string }

func damaged(format string, args ...any) {
	panic(stop{fmt.Errorf("%w: "+format, append([]any{ErrDamaged}, args...)...)})
}

func bad(what string) { panic(malformed{what}) }

// guard is what reading a file spends. Every loop that the file's bytes can make long ticks
// it, and every decoded byte is counted.
type guard struct {
	ctx      context.Context
	ticks    uint
	inflated int64
	mapped   int
}

// tick counts a step; every few thousand it checks the context.
func (g *guard) tick() {
	g.ticks++
	if g.ticks&4095 == 0 {
		g.check()
	}
}

// ticks counts n steps at once (a loop over bytes).
func (g *guard) tickN(n int) {
	before := g.ticks
	g.ticks += uint(n)
	if g.ticks>>12 != before>>12 {
		g.check()
	}
}

func (g *guard) check() {
	if g.ctx.Err() != nil {
		panic(stop{context.Cause(g.ctx)})
	}
}

// inflate counts n bytes more decoded from the file's streams.
func (g *guard) inflate(n int) {
	if g.inflated += int64(n); g.inflated > MaxInflated {
		damaged("its streams decode to more than %d MiB", MaxInflated>>20)
	}
	g.tickN(n >> 10)
}

// mapping counts n character mappings more read from the file's CMaps.
func (g *guard) mapping(n int) {
	if g.mapped += n; g.mapped > maxMapped {
		damaged("its CMaps map more than %d characters", maxMapped)
	}
}

// recovered turns what a panic carried into the error an exported method answers: a stop's
// own error, anything else (a malformed piece nobody caught, a bug) a damaged file. The
// guard's context wins over all: a parse stopped is stopped, whatever it was doing.
func recovered(g *guard, x any, err *error) {
	if x != nil {
		switch x := x.(type) {
		case stop:
			*err = x.err
		case malformed:
			*err = fmt.Errorf("%w: %s", ErrDamaged, x.what)
		case runtime.Error:
			*err = fmt.Errorf("%w: %v", ErrDamaged, x)
		default:
			*err = fmt.Errorf("%w: %v", ErrDamaged, x)
		}
	}
	if g != nil && g.ctx.Err() != nil {
		*err = context.Cause(g.ctx)
	}
}

// catch runs fn, answering a malformed piece as false; a stop goes on up.
func catch(fn func()) (ok bool) {
	defer func() {
		if x := recover(); x != nil {
			if _, isBad := x.(malformed); !isBad {
				panic(x)
			}
			ok = false
		}
	}()
	fn()
	return true
}
