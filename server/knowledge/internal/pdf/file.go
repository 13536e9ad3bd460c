package pdf

import (
	"bytes"
	"errors"
	"io"
)

// The file is read in blocks, kept while there is room: parsing jumps about the file, and
// each ReadAt of an object store is a request of its own.
const (
	blockSize = 64 << 10
	maxBlocks = 256 // 16 MiB
)

type file struct {
	g      *guard
	ra     io.ReaderAt
	size   int64
	blocks map[int64][]byte
	order  []int64 // blocks in the order they were read, to drop the oldest
}

func newFile(g *guard, ra io.ReaderAt, size int64) *file {
	return &file{g: g, ra: ra, size: size, blocks: map[int64][]byte{}}
}

// block answers the bytes of the block holding off, short at the end of the file.
func (f *file) block(off int64) []byte {
	n := off / blockSize
	if b, ok := f.blocks[n]; ok {
		return b
	}
	var buf []byte
	if len(f.order) >= maxBlocks {
		old := f.order[0]
		f.order = f.order[1:]
		buf = f.blocks[old][:0]
		delete(f.blocks, old)
	}
	start := n * blockSize
	size := min(blockSize, f.size-start)
	if cap(buf) < int(size) {
		buf = make([]byte, size)
	}
	buf = buf[:size]
	got, err := f.ra.ReadAt(buf, start)
	if got < len(buf) && err != nil && !errors.Is(err, io.EOF) {
		panic(stop{err})
	}
	buf = buf[:got]
	f.blocks[n] = buf
	f.order = append(f.order, n)
	f.g.tick()
	return buf
}

// readAt copies the file's bytes at off into p, answering how many there were.
func (f *file) readAt(p []byte, off int64) int {
	done := 0
	for done < len(p) && off < f.size {
		b := f.block(off)
		i := int(off % blockSize)
		if i >= len(b) {
			break
		}
		n := copy(p[done:], b[i:])
		done += n
		off += int64(n)
	}
	return done
}

// section is a reader of the file's bytes from off to end.
type section struct {
	f        *file
	off, end int64
}

func (s *section) Read(p []byte) (int, error) {
	if s.off >= s.end {
		return 0, io.EOF
	}
	if int64(len(p)) > s.end-s.off {
		p = p[:s.end-s.off]
	}
	n := s.f.readAt(p, s.off)
	s.off += int64(n)
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// index finds the first of the given words in the file at or after from and before end,
// answering its position and which word it is (-1 when none is there).
func (f *file) index(from, end int64, words ...string) (int64, int) {
	end = min(end, f.size)
	longest := 0
	for _, w := range words {
		longest = max(longest, len(w))
	}
	var seam []byte
	for at := from; at < end; {
		b := f.block(at)
		i := int(at % blockSize)
		if i >= len(b) {
			break
		}
		chunk := b[i:]
		if rest := end - at; int64(len(chunk)) > rest {
			chunk = chunk[:rest]
		}
		best, which := firstOf(chunk, words)
		if best < 0 && at+int64(len(chunk)) < end {
			// A word may cross into the next block.
			tail := chunk[max(0, len(chunk)-longest+1):]
			seam = append(seam[:0], tail...)
			next := make([]byte, longest-1)
			n := f.readAt(next, at+int64(len(chunk)))
			seam = append(seam, next[:n]...)
			if j, w := firstOf(seam, words); j >= 0 {
				best, which = len(chunk)-len(tail)+j, w
			}
		}
		if best >= 0 && at+int64(best) < end {
			return at + int64(best), which
		}
		at += int64(len(chunk))
		f.g.tick()
	}
	return -1, -1
}

func firstOf(b []byte, words []string) (int, int) {
	best, which := -1, -1
	for w, word := range words {
		if j := bytes.Index(b, []byte(word)); j >= 0 && (best < 0 || j < best) {
			best, which = j, w
		}
	}
	return best, which
}
