//go:build (darwin || freebsd) && !race

package offheap

// hugePool: no transparent huge pages to ask for here.
type hugePool struct{}

var huge hugePool

func (hugePool) alloc(int) []byte    { return nil }
func (hugePool) release([]byte) bool { return false }
