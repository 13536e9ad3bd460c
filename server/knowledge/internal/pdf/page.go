package pdf

import "fmt"

// Page is a page of a document: its content and the resources it draws with.
type Page struct {
	r        *Reader
	contents Object
	res      Dict
	rotate   int // 0, 90, 180 or 270, clockwise
}

// Pages answers the document's pages in order, walking the page tree from the catalog with
// the attributes pages inherit. A tree with more than max pages, deeper than it may be, or
// in which a node is met twice (a cycle, or a page listed twice) is a damaged file.
func (r *Reader) Pages(max int) (pages []Page, err error) {
	defer func() {
		recovered(r.g, recover(), &err)
		if err != nil {
			pages = nil
		}
	}()
	root := r.catalog()
	seen := map[Ref]bool{}
	type inherited struct {
		res    Dict
		rotate int
	}
	var walk func(node Object, in inherited, depth int)
	walk = func(node Object, in inherited, depth int) {
		r.g.tick()
		if depth > maxTreeDepth {
			damaged("a page tree deeper than %d levels", maxTreeDepth)
		}
		if ref, ok := node.(Ref); ok {
			if seen[ref] {
				damaged("a page tree that meets object %d twice", ref.Num)
			}
			seen[ref] = true
		}
		d := r.dict(node)
		if d == nil {
			return
		}
		if res := r.dict(d["Resources"]); res != nil {
			in.res = res
		}
		if rot, ok := r.int(d["Rotate"]); ok {
			in.rotate = ((rot/90)%4 + 4) % 4 * 90
		}
		kids, isNode := r.resolve(d["Kids"]).(Array)
		if t := nameOf(r.resolve(d["Type"])); t == "Page" || (!isNode && t != "Pages") {
			if len(pages) >= max {
				damaged("more than %d pages", max)
			}
			pages = append(pages, Page{r: r, contents: d["Contents"], res: in.res, rotate: in.rotate})
			return
		}
		for _, kid := range kids {
			walk(kid, in, depth+1)
		}
	}
	walk(root["Pages"], inherited{}, 0)
	return pages, nil
}

// Text is a glyph drawn on a page: the text it stands for, where it is and how big, in the
// page's user space turned as the page is shown (/Rotate), so that text upright on the page
// runs left to right along X, and Y goes up. X and Y are the glyph's origin on the baseline
// (a super- or subscript's rise left out: it is on the line it rises from); W is its width
// (character and word spacing left out: writers that space words or letters with them leave
// a gap after the glyph, as they do with positioning); FontSize is the size it is drawn at.
type Text struct {
	S        string
	X, Y, W  float64
	FontSize float64
}

// Walk calls fn with each glyph the page draws, in the order its content draws them. It
// answers fn's error as it is, ErrDamaged for a file past a budget, and the context's cause
// once it ends.
func (p Page) Walk(fn func(Text) error) (err error) {
	if p.r == nil {
		return fmt.Errorf("%w: no page", ErrDamaged)
	}
	defer func() { recovered(p.r.g, recover(), &err) }()
	in := newInterp(p.r, fn)
	in.gs.ctm = rotation(p.rotate)
	in.run(p.r.contentStreams(p.contents), p.res)
	in.flush()
	return nil
}

// rotation is the matrix that turns the page as it is shown: clockwise by deg.
func rotation(deg int) matrix {
	switch deg {
	case 90:
		return matrix{0, -1, 1, 0, 0, 0}
	case 180:
		return matrix{-1, 0, 0, -1, 0, 0}
	case 270:
		return matrix{0, 1, -1, 0, 0, 0}
	}
	return identity
}
