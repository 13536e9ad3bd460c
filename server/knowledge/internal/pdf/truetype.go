package pdf

import "encoding/binary"

// A composite font without a ToUnicode CMap still says what its glyphs are when its program
// is an embedded TrueType font: the font's own cmap table maps characters to glyphs, and
// read backwards, glyphs to characters. Readers fall back on it; so does Betty.

// maxCmapSteps bounds the characters read from one font's cmap table.
const maxCmapSteps = 1 << 20

// sfnt reads big-endian numbers from a font program, as 0 past its end.
type sfnt []byte

func (b sfnt) u16(off int) int {
	if off < 0 || off+2 > len(b) {
		return 0
	}
	return int(binary.BigEndian.Uint16(b[off:]))
}

func (b sfnt) u32(off int) int {
	if off < 0 || off+4 > len(b) {
		return 0
	}
	return int(binary.BigEndian.Uint32(b[off:]))
}

// glyphChars answers the character each glyph of a TrueType program draws, by glyph id
// (0: none known), from its Unicode cmap subtable (format 4, or 12 for characters past the
// Basic Multilingual Plane).
func (r *Reader) glyphChars(s *Stream) []rune {
	b := sfnt(r.readStream(s))
	numTables := b.u16(4)
	cmap, glyphs := -1, 65536
	for i := range min(numTables, 64) {
		rec := 12 + 16*i
		switch string(b[min(rec, len(b)):min(rec+4, len(b))]) {
		case "cmap":
			cmap = b.u32(rec + 8)
		case "maxp":
			if n := b.u16(b.u32(rec+8) + 4); n > 0 {
				glyphs = n
			}
		}
	}
	if cmap < 0 || cmap >= len(b) {
		return nil
	}
	// The best subtable: full Unicode (format 12), else the Basic Multilingual Plane.
	best, bestRank := -1, 0
	for i := range min(b.u16(cmap+2), 64) {
		rec := cmap + 4 + 8*i
		platform, encoding, off := b.u16(rec), b.u16(rec+2), cmap+b.u32(rec+4)
		rank := 0
		switch format := b.u16(off); {
		case format == 12 && (platform == 3 && encoding == 10 || platform == 0):
			rank = 3
		case format == 4 && (platform == 3 && encoding == 1):
			rank = 2
		case format == 4 && platform == 0:
			rank = 1
		}
		if rank > bestRank {
			best, bestRank = off, rank
		}
	}
	if best < 0 {
		return nil
	}
	chars := make([]rune, glyphs)
	set := func(c, gid int) {
		if gid > 0 && gid < len(chars) && chars[gid] == 0 {
			chars[gid] = rune(c)
		}
	}
	steps := 0
	step := func() bool {
		steps++
		r.g.tick()
		return steps <= maxCmapSteps
	}
	if b.u16(best) == 12 {
		groups := b.u32(best + 12)
		for i := range min(groups, maxCmapSteps) {
			g := best + 16 + 12*i
			start, end, gid := b.u32(g), b.u32(g+4), b.u32(g+8)
			for c := start; c <= end && c <= 0x10ffff && gid+c-start < glyphs; c++ {
				if !step() {
					return chars
				}
				set(c, gid+c-start)
			}
		}
		return chars
	}
	segs := b.u16(best+6) / 2
	ends, starts := best+14, best+16+2*segs
	deltas, ranges := starts+2*segs, starts+4*segs
	for i := range segs {
		start, end := b.u16(starts+2*i), b.u16(ends+2*i)
		delta, ro := b.u16(deltas+2*i), b.u16(ranges+2*i)
		for c := start; c <= end && c < 0xffff; c++ {
			if !step() {
				return chars
			}
			gid := (c + delta) & 0xffff
			if ro != 0 {
				if gid = b.u16(ranges + 2*i + ro + 2*(c-start)); gid != 0 {
					gid = (gid + delta) & 0xffff
				}
			}
			set(c, gid)
		}
	}
	return chars
}

// cidGlyphs reads a CIDFontType2's /CIDToGIDMap stream: the glyph of each CID, two bytes
// each (nil: the glyph is the CID, as /Identity says).
func (r *Reader) cidGlyphs(o Object) []byte {
	if s, ok := r.resolve(o).(*Stream); ok {
		return r.readStream(s)
	}
	return nil
}
