package explore

import (
	"fmt"
	"os"
)

// level is one BFS level of encoded states, stored back to back: in memory
// while it is small, and in a temporary file once it passes
// spillFrontierAfter bytes (the search reads a level once, in order, and
// writes the next one in order, so the disk serves it well). The search
// keeps two levels, the one being expanded and the next.
type level struct {
	data   []byte   // the states, while in memory
	ends   []uint64 // end offset of each state
	base   uint32   // index of the first state of the level
	size   int64    // bytes written so far
	file   *os.File // the states, once spilled (reused from level to level)
	onDisk bool
	dir    string
	err    error
}

// spillFrontierAfter is the size at which a level moves to its file. A
// variable so that tests can make every level spill.
var spillFrontierAfter int64 = 4 << 20

func (l *level) count() int { return len(l.ends) }

// push appends a state (initial states; one goroutine).
func (l *level) push(s []byte) {
	l.data = append(l.data, s...)
	l.size += int64(len(s))
	l.ends = append(l.ends, uint64(l.size))
}

func (l *level) start(i int) uint64 {
	if i == 0 {
		return 0
	}
	return l.ends[i-1]
}

// states returns the bytes of states [lo, hi) back to back, and the offset
// of state lo in the level; buf is scratch for a spilled level.
func (l *level) states(lo, hi int, buf *[]byte) ([]byte, uint64, error) {
	from, to := l.start(lo), l.ends[hi-1]
	if !l.onDisk {
		return l.data[from:to], from, nil
	}
	*buf = growTo((*buf)[:0], int(to-from))
	if _, err := l.file.ReadAt(*buf, int64(from)); err != nil {
		return nil, 0, fmt.Errorf("reading the frontier: %w", err)
	}
	return *buf, from, nil
}

func (l *level) reset(base uint32) {
	l.data, l.ends, l.base, l.size, l.onDisk = l.data[:0], l.ends[:0], base, 0, false
}

// reserve makes room for states up to count (exclusive) and bytes up to
// size, moving the level to its file when it gets large; call it when no
// worker runs.
func (l *level) reserve(count int, size int64) {
	l.ends = growTo(l.ends, count)
	if !l.onDisk && size > spillFrontierAfter && l.err == nil {
		l.spill()
	}
	if !l.onDisk {
		l.data = growTo(l.data, int(size))
	}
	l.size = size
}

func (l *level) spill() {
	if l.file == nil {
		f, err := os.CreateTemp(l.dir, "mcheck-frontier-*")
		if err != nil {
			l.err = fmt.Errorf("the frontier stays in memory: %w", err)
			return
		}
		os.Remove(f.Name()) // nothing left behind, even after a crash
		l.file = f
	}
	if _, err := l.file.WriteAt(l.data[:l.size], 0); err != nil {
		l.err = fmt.Errorf("the frontier stays in memory: %w", err)
		return
	}
	l.onDisk = true
	l.data = nil // its memory goes back to the heap
}

// write stores b, the states from byte off on (one chunk's new states, in
// order); safe for concurrent use on disjoint ranges.
func (l *level) write(off int64, b []byte) error {
	if !l.onDisk {
		copy(l.data[off:], b)
		return nil
	}
	if _, err := l.file.WriteAt(b, off); err != nil {
		return fmt.Errorf("writing the frontier: %w", err)
	}
	return nil
}

func (l *level) close() {
	if l.file != nil {
		l.file.Close()
		l.file = nil
	}
}

func (l *level) memBytes() int64 { return int64(cap(l.data)) + int64(cap(l.ends))*8 }
