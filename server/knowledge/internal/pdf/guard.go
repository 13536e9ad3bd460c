// Package pdf reads the text of PDF files that anybody may have written, hostile ones included.
//
// It is github.com/ledongthuc/pdf (itself rsc.io/pdf; BSD licence, see LICENSE), taken into
// Betty and changed so that no file can make it run, recurse or allocate without bound: every
// loop ticks a guard that stops the work when its context ends; the page tree, cross-reference
// chains and object streams are walked with a record of where they have been, so a cycle is
// an error rather than a loop; streams, tokens, arrays, the operand stack and the objects a
// file may number are capped, and what streams inflate to is counted against a budget for the
// whole file. What was left out: the helpers Betty does not use (plain text, rows, columns,
// outlines) and reading files from paths.
package pdf

import (
	"context"
	"errors"
	"fmt"
)

// Limits of one file. A file past one is damaged (ErrDamaged), or, for the inflated bytes of
// all its streams, more work than a knowledge file is worth.
const (
	// MaxStream bounds what one stream inflates to.
	MaxStream = 64 << 20
	// MaxInflated bounds what all the streams of a file inflate to, counted each time one is
	// read (a stream drawn 100,000 times counts 100,000 times).
	MaxInflated = 256 << 20
	// maxToken bounds one string, name or keyword.
	maxToken = 1 << 20
	// maxElements bounds the entries of one array or dictionary.
	maxElements = 1 << 18
	// maxStack bounds the operands a content stream or CMap may stack up.
	maxStack = 1 << 16
	// maxObjects bounds the object numbers a file may use, whatever its size.
	maxObjects = 1 << 20
	// maxSections bounds the cross-reference sections chained by /Prev.
	maxSections = 256
	// maxStreamDepth bounds object streams found inside object streams.
	maxStreamDepth = 8
	// maxTreeDepth bounds the levels of the page tree.
	maxTreeDepth = 64
	// maxMapped bounds the character mappings all the CMaps of a file hold.
	maxMapped = 1 << 18
)

// ErrDamaged is a file whose structure cannot be what it says: a page tree or cross-reference
// chain that loops, an object stream inside itself, a stream inflating past its limit.
var ErrDamaged = errors.New("pdf: damaged file")

// stop ends all work on a file: its context ended, or it is damaged beyond reading any page.
// It travels as a panic through the parser (which reports malformed objects by panicking
// too), past every recover that would swallow a malformed object, to the public method that
// turns it into an error.
type stop struct{ err error }

// guard is what a Reader spends: it is ticked in every loop that input can make long.
type guard struct {
	ctx      context.Context
	ticks    uint
	inflated int64
	mappings int
}

func (g *guard) tick() {
	if g == nil {
		return
	}
	g.ticks++
	if g.ticks&255 != 0 {
		return
	}
	select {
	case <-g.ctx.Done():
		panic(stop{context.Cause(g.ctx)})
	default:
	}
}

// inflate counts n bytes more inflated from the file's streams.
func (g *guard) inflate(n int) {
	if g == nil {
		return
	}
	g.inflated += int64(n)
	if g.inflated > MaxInflated {
		panic(stop{fmt.Errorf("%w: its streams inflate to more than %d MiB", ErrDamaged, MaxInflated>>20)})
	}
}

// mapped counts n character mappings more read from the file's CMaps.
func (g *guard) mapped(n int) {
	if g == nil {
		return
	}
	if g.mappings += n; g.mappings > maxMapped {
		damaged("its CMaps map more than %d characters", maxMapped)
	}
}

// damaged stops all work on the file.
func damaged(format string, args ...any) {
	panic(stop{fmt.Errorf("%w: "+format, append([]any{ErrDamaged}, args...)...)})
}

// stopped turns a stop into the error it carries, and any other panic, a malformed file,
// into an error too. Deferred by every exported method that parses.
func stopped(err *error) {
	switch x := recover().(type) {
	case nil:
	case stop:
		*err = x.err
	case error:
		*err = fmt.Errorf("pdf: malformed file: %w", x)
	default:
		*err = fmt.Errorf("pdf: malformed file: %v", x)
	}
}

// rethrowStop re-panics a stop that a recover of malformed input caught.
func rethrowStop(x any) {
	if s, ok := x.(stop); ok {
		panic(s)
	}
}
