package explore

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
)

// level is one BFS level of encoded states, stored back to back: in memory
// while it is small, and in a temporary file once it passes
// spillAfter bytes (the search reads a level once, in order, and
// writes the next one in order, so the disk serves it well). The search
// keeps two levels, the one being expanded and the next.
//
// Per state it keeps only the length of its encoding (2 bytes), and the
// offset of every chunkStates-th state: readers go through a chunk in
// order, so they add up lengths from the chunk's start.
type level struct {
	data   []byte   // the states, while in memory
	lens   []uint16 // length of each state's encoding
	offs   []uint64 // offset of state k*chunkStates
	base   uint32   // index of the first state of the level
	size   int64    // bytes written so far
	file   *os.File // the states, once spilled (reused from level to level)
	onDisk bool
	dir    string
	err    error
	// spillAfter is the size at which the level moves to its file
	// (spillFrontierAfter but in tests).
	spillAfter int64
	// A spilled level is read and written a batch at a time, one system
	// call each instead of one per chunk (128 states; the calls were 5% of
	// a chang-roberts search): win holds the states of the batch being
	// expanded, from byte winFrom on; out collects the new states of the
	// batch being written, from byte outFrom on, while batching. Their
	// memory is io's, which the search's two levels share: only the
	// current level is read and only the next one written.
	io       *batchBufs
	win      []byte
	winFrom  uint64
	out      []byte
	outFrom  int64
	batching bool
}

// spillFrontierAfter is the size at which a level moves to its file. 1 MiB
// rather than 4:
// with the state table off the heap, the two levels' arrays (and the
// copies growTo leaves while they grow) were the heap's largest part, 11
// MB of bully --n 4's peak (BENCHMARKS.md, off-heap table).
const spillFrontierAfter int64 = 1 << 20

// batchBufs is the memory of the levels' batch reads and writes.
type batchBufs struct{ win, out []byte }

func (b *batchBufs) bytes() int64 { return int64(cap(b.win)) + int64(cap(b.out)) }

// maxStateBytes is the longest encoding a level can hold.
const maxStateBytes = 1<<16 - 1

// errStateTooLong stops a search whose states outgrow maxStateBytes.
var errStateTooLong = fmt.Errorf("a state's encoding is longer than %d bytes, the most the frontier holds", maxStateBytes)

func (l *level) count() int { return len(l.lens) }

// push appends a state (initial states; one goroutine).
func (l *level) push(s []byte) error {
	if len(s) > maxStateBytes {
		return errStateTooLong
	}
	if len(l.lens)%chunkStates == 0 {
		l.offs = append(l.offs, uint64(l.size))
	}
	l.data = append(l.data, s...)
	l.size += int64(len(s))
	l.lens = append(l.lens, uint16(len(s)))
	return nil
}

// set records that state i (counted from the level's start) is n bytes
// long and starts at byte off; safe for concurrent use on distinct states.
func (l *level) set(i int, off int64, n int) error {
	if n > maxStateBytes {
		return errStateTooLong
	}
	l.lens[i] = uint16(n)
	if i%chunkStates == 0 {
		l.offs[i/chunkStates] = uint64(off)
	}
	return nil
}

// end is the offset just past state hi-1, hi a multiple of chunkStates or
// the count.
func (l *level) end(hi int) uint64 {
	if hi == len(l.lens) {
		return uint64(l.size)
	}
	return l.offs[hi/chunkStates]
}

// states returns the bytes of states [lo, hi) back to back (lo a multiple
// of chunkStates; hi one too, or the count); buf is scratch for a spilled
// level. State i of them is lens[i] bytes long, right after state i-1.
func (l *level) states(lo, hi int, buf *[]byte) ([]byte, error) {
	from, to := l.offs[lo/chunkStates], l.end(hi)
	if !l.onDisk {
		return l.data[from:to], nil
	}
	if from >= l.winFrom && to <= l.winFrom+uint64(len(l.win)) {
		return l.win[from-l.winFrom : to-l.winFrom], nil
	}
	*buf = growTo((*buf)[:0], int(to-from))
	if _, err := l.file.ReadAt(*buf, int64(from)); err != nil {
		return nil, fmt.Errorf("reading the frontier: %w", err)
	}
	return *buf, nil
}

// load reads the states [lo, hi) of a spilled level at once, for states to
// hand out (lo a multiple of chunkStates; hi one too, or the count); call
// it when no worker runs.
func (l *level) load(lo, hi int) error {
	if !l.onDisk || lo >= hi {
		return nil
	}
	from, to := l.offs[lo/chunkStates], l.end(hi)
	l.io.win = growTo(l.io.win[:0], int(to-from))
	l.win, l.winFrom = l.io.win, from
	if _, err := l.file.ReadAt(l.win, int64(from)); err != nil {
		l.win = nil
		return fmt.Errorf("reading the frontier: %w", err)
	}
	return nil
}

// batch starts collecting the writes to bytes [from, to) of a spilled
// level, for flush to write at once; call it when no worker runs.
func (l *level) batch(from, to int64) {
	if !l.onDisk {
		return
	}
	l.io.out = growTo(l.io.out[:0], int(to-from))
	l.out, l.outFrom, l.batching = l.io.out, from, true
}

// flush writes what batch collected; call it when no worker runs. When
// the file takes no more (a full or small TMPDIR), the level comes back
// to memory and the search goes on there, within the memory budget.
func (l *level) flush() error {
	if !l.batching {
		return nil
	}
	l.batching = false
	if _, err := l.file.WriteAt(l.out, l.outFrom); err != nil {
		return l.unspill(err)
	}
	return nil
}

// unspill brings a spilled level back to memory after a write to its file
// failed with cause: the bytes the file holds, then the batch that could
// not be written. Later levels stay in memory.
func (l *level) unspill(cause error) error {
	data := make([]byte, l.size)
	if _, err := l.file.ReadAt(data[:l.outFrom], 0); err != nil {
		return fmt.Errorf("writing the frontier: %w; reading it back: %w", cause, err)
	}
	copy(data[l.outFrom:], l.out)
	l.data, l.onDisk, l.win, l.out = data, false, nil, nil
	l.err = fmt.Errorf("the frontier stays in memory: %w", cause)
	_ = l.file.Truncate(0) // give the disk back
	return nil
}

func (l *level) reset(base uint32) {
	l.data, l.lens, l.offs, l.base, l.size, l.onDisk = l.data[:0], l.lens[:0], l.offs[:0], base, 0, false
	l.win, l.winFrom, l.out, l.batching = nil, 0, nil, false
}

// reserve makes room for states up to count (exclusive) and bytes up to
// size, moving the level to its file when it gets large; call it when no
// worker runs.
func (l *level) reserve(count int, size int64) {
	l.lens = growTo(l.lens, count)
	l.offs = growTo(l.offs, (count+chunkStates-1)/chunkStates)
	if !l.onDisk && size > l.spillAfter && l.err == nil {
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
	if l.batching && off >= l.outFrom && off+int64(len(b)) <= l.outFrom+int64(len(l.out)) {
		copy(l.out[off-l.outFrom:], b)
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

func (l *level) memBytes() int64 {
	return int64(cap(l.data)) + int64(cap(l.lens))*2 + int64(cap(l.offs))*8
}

// frontier is the search's part that holds its states in BFS order: the
// level being expanded (cur), the next one, the memory of their batch
// reads and writes, and every state's parent link (for traces).
type frontier struct {
	cur, next level
	io        batchBufs
	links     links
	// flushPending: the last batch's links and new states are still to
	// be written to the files (flush).
	flushPending bool
}

// init points both levels at the shared batch buffers; dir is where they
// and the links spill, once a level passes levelAfter bytes and the links
// linksAfter entries.
func (f *frontier) init(dir string, levelAfter int64, linksAfter int) {
	f.cur.dir, f.next.dir = dir, dir
	f.cur.io, f.next.io = &f.io, &f.io
	f.cur.spillAfter, f.next.spillAfter = levelAfter, levelAfter
	f.links = links{dir: dir, spill: linksAfter}
}

// flush writes what the last batch left in memory for the files: the
// parent links (when they spill) and the next level's new states.
func (f *frontier) flush() error {
	f.links.flush()
	return f.next.flush()
}

// close gives back the files.
func (f *frontier) close() {
	f.links.close()
	f.cur.close()
	f.next.close()
}

func (f *frontier) memBytes() int64 {
	return f.links.memBytes() + f.cur.memBytes() + f.next.memBytes() + f.io.bytes()
}

// spillFailed says why the frontier's files failed, or is nil.
func (f *frontier) spillFailed() error {
	var why []string
	for _, err := range []error{f.links.err, f.cur.err, f.next.err} {
		if err != nil && !slices.Contains(why, err.Error()) {
			why = append(why, err.Error())
		}
	}
	if why == nil {
		return nil
	}
	return errors.New(strings.Join(why, "; "))
}
