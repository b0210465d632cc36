package itf_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcheck/mcheck/itf"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// maxFuzzInput caps the inputs FuzzRead reads while fuzzing. The fuzzer
// minimizes every input that finds new coverage with a number of tries
// quadratic in its length, and a try that reads as a trace replays it: at
// the golden traces' sizes (tens of KB of ITF) one minimizing takes all
// of go test's default minute (-fuzzminimizetime) and the fuzzing stalls.
// ITF writes the initial state of N = 3 in about 1.5 KB (the seeds leave
// out the summary, which it writes twice).
const maxFuzzInput = 2 << 10

// maxFuzzPermN bounds the configurations FuzzRead replays with every
// arrangement of IDs: a replay tries each of the N! initial states (0.8 s
// at N = 8, the largest).
const maxFuzzPermN = 5

// FuzzRead feeds arbitrary bytes to the ITF reader and, when they read as
// a trace, to replay: either may reject them (with a *trace.MalformedError
// from the reader), neither may panic. The seed corpus is
// testdata/fuzz/FuzzRead plus the golden traces written as ITF, each cut
// to its first steps to fit maxFuzzInput.
func FuzzRead(f *testing.F) {
	golden, _ := filepath.Glob(filepath.Join("..", "testdata", "golden", "*.trace.json"))
	for _, g := range golden {
		if seed := fuzzSeed(f, g); seed != nil {
			f.Add(seed)
		}
	}
	if len(golden) == 0 {
		f.Fatal("no golden traces to seed the corpus")
	}
	reg := specs.Builtin()
	capped := fuzzing()
	f.Fuzz(func(t *testing.T, data []byte) {
		if capped && len(data) > maxFuzzInput {
			return
		}
		tf, err := itf.Read(data)
		if err != nil {
			var mal *trace.MalformedError
			if !errors.As(err, &mal) {
				t.Fatalf("the reader failed with %T, not a MalformedError: %v", err, err)
			}
			return
		}
		if tf.Config.Perm && tf.Config.N > maxFuzzPermN {
			return
		}
		_ = trace.Replay(tf, reg)
	})
}

// fuzzSeed is the golden trace g written as ITF with as many of its first
// steps as fit in maxFuzzInput and read back (a cycle's start and a
// premise moved inside them), or nil.
func fuzzSeed(t testing.TB, g string) []byte {
	data, err := os.ReadFile(g)
	if err != nil {
		t.Fatal(err)
	}
	tf, err := trace.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for k := len(tf.Steps); k >= 1; k-- {
		cut := *tf
		cut.Steps = tf.Steps[:k]
		cut.Summary = "" // written twice, and nothing reads it
		if c := cut.CycleStart; c != nil && *c >= k-1 {
			cut.CycleStart = new(int)
		}
		if p := cut.Premise; p != nil && *p >= k {
			last := k - 1
			cut.Premise = &last
		}
		var w, b bytes.Buffer
		if err := itf.Write(&w, &cut); err != nil {
			continue // a cut the writer refuses
		}
		if err := json.Compact(&b, w.Bytes()); err != nil {
			t.Fatal(err)
		}
		if b.Len() > maxFuzzInput {
			continue
		}
		if _, err := itf.Read(b.Bytes()); err == nil {
			return b.Bytes()
		}
	}
	return nil
}

// Most golden traces give FuzzRead a seed that fits its cap and reads as
// a trace: the fuzzing starts from inputs that reach the replay, not only
// the reader.
func TestFuzzSeedsRead(t *testing.T) {
	golden, err := filepath.Glob(filepath.Join("..", "testdata", "golden", "*.trace.json"))
	if err != nil || len(golden) == 0 {
		t.Fatalf("no golden traces: %v", err)
	}
	seeds := 0
	for _, g := range golden {
		seed := fuzzSeed(t, g)
		if seed == nil {
			t.Logf("no seed from %s: not even its first steps fit", g)
			continue
		}
		if len(seed) > maxFuzzInput {
			t.Fatalf("%s: a seed of %d bytes, over the cap of %d", g, len(seed), maxFuzzInput)
		}
		seeds++
	}
	if 2*seeds <= len(golden) {
		t.Fatalf("%d of %d golden traces give FuzzRead a seed", seeds, len(golden))
	}
}

// fuzzing reports whether go test runs with -fuzz. maxFuzzInput caps the
// fuzzer's inputs only: go test without -fuzz reads and replays every
// entry of the seed corpus whole, the larger regression inputs included.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}
