package pdf

import "fmt"

// Page is a page of a document: its content and the resources it draws with.
type Page struct {
	r        *Reader
	contents Object
	res      Dict
	rotate   int        // 0, 90, 180 or 270, clockwise
	box      [4]float64 // the media box: llx lly urx ury
}

// Pages answers the document's pages in order, walking the page tree from the catalog with
// the attributes pages inherit (resources, media box, rotation). A tree with more than max pages, deeper than it may be, or
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
		box    [4]float64
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
		if box := r.array(d["MediaBox"]); len(box) == 4 {
			for i := range in.box {
				in.box[i], _ = r.num(box[i])
			}
		}
		if rot, ok := r.int(d["Rotate"]); ok {
			in.rotate = ((rot/90)%4 + 4) % 4 * 90
		}
		kids, isNode := r.resolve(d["Kids"]).(Array)
		if t := nameOf(r.resolve(d["Type"])); t == "Page" || (!isNode && t != "Pages") {
			if len(pages) >= max {
				damaged("more than %d pages", max)
			}
			pages = append(pages, Page{r: r, contents: d["Contents"], res: in.res, rotate: in.rotate, box: in.box})
			return
		}
		for _, kid := range kids {
			walk(kid, in, depth+1)
		}
	}
	// A page must have a media box; one that has none is taken as US Letter.
	walk(root["Pages"], inherited{box: [4]float64{0, 0, 612, 792}}, 0)
	return pages, nil
}

// Text is a glyph drawn on a page: the text it stands for, where it is and how big, in the
// page's user space turned as the page is shown (/Rotate), so that text upright on the page
// runs left to right along X, and Y goes up from the shown page's lower left corner. X and Y are the glyph's origin on the baseline
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
	in.gs.ctm = rotation(p.rotate, p.box)
	in.run(p.r.contentStreams(p.contents), p.res)
	in.flush()
	return nil
}

// rotation is the matrix that turns the page as it is shown, clockwise by deg, with the
// lower left corner of the box shown at (0, 0).
func rotation(deg int, box [4]float64) matrix {
	llx, lly, urx, ury := min(box[0], box[2]), min(box[1], box[3]), max(box[0], box[2]), max(box[1], box[3])
	switch deg {
	case 90:
		return matrix{0, -1, 1, 0, -lly, urx}
	case 180:
		return matrix{-1, 0, 0, -1, urx, ury}
	case 270:
		return matrix{0, 1, -1, 0, ury, -llx}
	}
	return matrix{1, 0, 0, 1, -llx, -lly}
}
