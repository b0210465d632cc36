//go:build linux && !race

package offheap

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// The table's segments (512 KiB of keys, 256 KiB of indices) are cut from
// 2 MiB chunks, four and eight to a chunk, and a chunk goes back to the
// system with its last piece.
func TestSegmentsShareAlignedChunks(t *testing.T) {
	var segs [][]uint64
	for range 4 {
		segs = append(segs, Make[uint64](1<<16))
	}
	base := chunkOf(bytesOf(segs[0]))
	require.Zero(t, base%hugePage)
	for _, s := range segs {
		require.Equal(t, base, chunkOf(bytesOf(s)), "four 512 KiB segments fill one chunk")
	}
	fifth := Make[uint64](1 << 16)
	require.NotEqual(t, base, chunkOf(bytesOf(fifth)), "the fifth needs another chunk")

	// A piece freed and handed out again comes back zeroed.
	segs[1][7] = 42
	Free(segs[1])
	again := Make[uint64](1 << 16)
	require.Equal(t, base, chunkOf(bytesOf(again)), "the free piece is reused")
	require.Zero(t, again[7])

	Free(again)
	Free(segs[0])
	Free(segs[2])
	require.True(t, mapped(t, segs[3]), "a chunk with a piece in use stays")
	Free(segs[3])
	require.False(t, mapped(t, segs[3]), "the last piece's free unmaps the chunk")
	Free(fifth)
	require.False(t, mapped(t, fifth))
}

// Arrays of other sizes are mapped on their own, as before; multiples of
// 2 MiB are aligned chunks themselves.
func TestHugeSizesOnly(t *testing.T) {
	small := Make[uint64](1000)
	require.Nil(t, huge.chunks[chunkOf(bytesOf(small))], "not a piece")
	Free(small)
	require.False(t, mapped(t, small))

	big := Make[uint64](3 * hugePage / 8)
	require.Zero(t, uintptr(unsafe.Pointer(unsafe.SliceData(big)))%hugePage)
	Free(big)
	require.False(t, mapped(t, big))
}

// The chunks are advised as huge pages: the kernel marks the mapping "hg"
// (whether it then has huge pages to give depends on its THP setting).
func TestChunksAreAdvisedHuge(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("this kernel has no transparent huge pages: the advice is refused and the pages stay small")
	}
	seg := Make[uint64](1 << 16)
	defer Free(seg)
	flags := vmFlags(t, uintptr(unsafe.Pointer(unsafe.SliceData(seg))))
	require.Contains(t, strings.Fields(flags), "hg", "VmFlags: %s", flags)
}

func bytesOf(xs []uint64) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(xs))), len(xs)*8)
}

// vmFlags is the VmFlags line of the mapping that holds addr, from
// /proc/self/smaps.
func vmFlags(t *testing.T, addr uintptr) string {
	f, err := os.Open("/proc/self/smaps")
	require.NoError(t, err)
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 {
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimPrefix(line, "VmFlags:")
		}
	}
	require.NoError(t, sc.Err())
	t.Fatalf("no mapping holds %#x", addr)
	return ""
}

// Where the kernel refuses MADV_POPULATE_WRITE the chunk's pages are
// faulted in by writing to each: the memory is resident and still zero.
func TestPopulateByTouching(t *testing.T) {
	b, err := mmap(hugePage, 0)
	require.NoError(t, err)
	defer func() { require.NoError(t, munmap(b)) }()
	touchPages(b)
	vec := make([]byte, hugePage/pageSize)
	_, _, errno := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)), uintptr(unsafe.Pointer(unsafe.SliceData(vec))))
	require.Zero(t, errno)
	for i, v := range vec {
		require.NotZero(t, v&1, "page %d is not resident", i)
	}
	require.Equal(t, make([]byte, hugePage), b)
}
