package trace_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// FuzzRead feeds arbitrary bytes to the trace reader and, when they read as
// a trace, to replay: either may reject them, neither may panic. The seed
// corpus is testdata/fuzz/FuzzRead plus the golden traces.
func FuzzRead(f *testing.F) {
	golden, _ := filepath.Glob(filepath.Join("..", "testdata", "golden", "*.trace.json"))
	for _, g := range golden {
		if data, err := os.ReadFile(g); err == nil {
			f.Add(data)
		}
	}
	reg := specs.Builtin()
	f.Fuzz(func(t *testing.T, data []byte) {
		tf, err := trace.Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		_ = trace.Replay(tf, reg)
	})
}
