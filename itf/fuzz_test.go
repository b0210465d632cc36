package itf_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcheck/mcheck/itf"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// FuzzRead feeds arbitrary bytes to the ITF reader and, when they read as
// a trace, to replay: either may reject them (with a *trace.MalformedError
// from the reader), neither may panic. The seed corpus is
// testdata/fuzz/FuzzRead plus the golden traces written as ITF.
func FuzzRead(f *testing.F) {
	golden, _ := filepath.Glob(filepath.Join("..", "testdata", "golden", "*.trace.json"))
	for _, g := range golden {
		data, err := os.ReadFile(g)
		if err != nil {
			f.Fatal(err)
		}
		tf, err := trace.Read(bytes.NewReader(data))
		if err != nil {
			f.Fatal(err)
		}
		var b bytes.Buffer
		if err := itf.Write(&b, tf); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	if len(golden) == 0 {
		f.Fatal("no golden traces to seed the corpus")
	}
	reg := specs.Builtin()
	f.Fuzz(func(t *testing.T, data []byte) {
		tf, err := itf.Read(data)
		if err != nil {
			var mal *trace.MalformedError
			if !errors.As(err, &mal) {
				t.Fatalf("the reader failed with %T, not a MalformedError: %v", err, err)
			}
			return
		}
		_ = trace.Replay(tf, reg)
	})
}
