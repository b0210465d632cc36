package explore

import (
	"encoding/binary"
	"fmt"
	"os"

	"github.com/mcheck/mcheck/ts"
)

// links keeps, per state, its parent's index and the action from the parent
// (8 bytes): all a trace needs, since traces are rebuilt by replay. It is
// written once per state, in index order, and read only for traces.
//
// Entries live in blocks of linkBlock, so growing never copies. Once more
// than spillAfter states are stored, full blocks go to a temporary file (as
// TLC keeps its trace file) and their memory is reused: a search of
// hundreds of millions of states keeps only its newest links in memory.
type links struct {
	blocks  [][]uint64 // parent<<32 | action; nil once written to the file
	n       int        // entries
	onDisk  int        // leading blocks that are in the file
	file    *os.File   // nil until the first spill
	dir     string     // where the file goes ("" for os.TempDir)
	spill   int        // spill once more than this many entries (0: never)
	spare   [][]uint64
	scratch [8]byte
	wbuf    []byte
	err     error // the first spill error; links then stay in memory
}

// spillLinksAfter is when parent links start going to the file: 2 MiB of
// them stay in memory, so small searches never touch the disk.
const spillLinksAfter = 1 << 18

const (
	linkShift = 12
	linkBlock = 1 << linkShift
)

// grow makes room for entries up to n (exclusive); call it when no worker
// runs, then set entries with set, in parallel.
func (l *links) grow(n int) {
	for len(l.blocks)*linkBlock < n {
		var b []uint64
		if k := len(l.spare); k > 0 {
			b, l.spare = l.spare[k-1], l.spare[:k-1]
		} else {
			b = make([]uint64, linkBlock)
		}
		l.blocks = append(l.blocks, b)
	}
	l.n = max(l.n, n)
}

func (l *links) set(i uint32, parent uint32, a ts.Action) {
	l.blocks[i>>linkShift][i&(linkBlock-1)] = uint64(parent)<<32 | uint64(a)
}

func (l *links) get(i uint32) (parent uint32, a ts.Action, err error) {
	b := int(i >> linkShift)
	var v uint64
	if b >= l.onDisk {
		v = l.blocks[b][i&(linkBlock-1)]
	} else {
		if _, err := l.file.ReadAt(l.scratch[:], int64(i)*8); err != nil {
			return 0, 0, fmt.Errorf("reading parent links: %w", err)
		}
		v = binary.LittleEndian.Uint64(l.scratch[:])
	}
	return uint32(v >> 32), ts.Action(uint32(v)), nil
}

// flush writes the full blocks below entry n to the file, when the store
// is past its spill threshold. Errors are kept: the links stay in memory.
func (l *links) flush() {
	if l.spill <= 0 || l.n <= l.spill || l.err != nil {
		return
	}
	for l.onDisk < len(l.blocks)-1 && (l.onDisk+1)*linkBlock <= l.n {
		if l.file == nil {
			f, err := os.CreateTemp(l.dir, "mcheck-links-*")
			if err != nil {
				l.err = fmt.Errorf("parent links stay in memory: %w", err)
				return
			}
			// The file is needed only by this process: unlink it now so that
			// nothing is left behind, even after a crash.
			os.Remove(f.Name())
			l.file = f
		}
		b := l.blocks[l.onDisk]
		l.wbuf = l.wbuf[:0]
		for _, v := range b {
			l.wbuf = binary.LittleEndian.AppendUint64(l.wbuf, v)
		}
		if _, err := l.file.WriteAt(l.wbuf, int64(l.onDisk)*linkBlock*8); err != nil {
			l.err = fmt.Errorf("parent links stay in memory: %w", err)
			return
		}
		l.spare = append(l.spare, b)
		l.blocks[l.onDisk] = nil
		l.onDisk++
	}
}

// close removes the file.
func (l *links) close() {
	if l.file != nil {
		l.file.Close()
		l.file = nil
	}
}

// memBytes is what the links hold in memory.
func (l *links) memBytes() int64 {
	return int64(len(l.blocks)-l.onDisk+len(l.spare))*linkBlock*8 + int64(cap(l.wbuf))
}
