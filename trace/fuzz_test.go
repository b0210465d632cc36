package trace_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// maxFuzzInput caps the inputs FuzzRead reads while fuzzing. The fuzzer
// minimizes every input that finds new coverage with a number of tries
// quadratic in its length, and a try that reads as a trace replays it
// (about a millisecond): at the golden traces' 5 to 26 KB, and still at
// 2 KiB, one minimizing takes all of go test's default minute
// (-fuzzminimizetime) and the fuzzing stalls; at 1 KiB it goes on. Every
// rule of the format shows in a trace of a step or two.
const maxFuzzInput = 1 << 10

// maxFuzzPermN bounds the configurations FuzzRead replays with every
// arrangement of IDs: a replay tries each of the N! initial states (0.8 s
// at N = 8, the largest), and one such input would stall the fuzzing as a
// long one does.
const maxFuzzPermN = 5

// FuzzRead feeds arbitrary bytes to the trace reader and, when they read as
// a trace, to replay: either may reject them, neither may panic. The seed
// corpus is testdata/fuzz/FuzzRead plus the golden traces, each cut to its
// first steps to fit maxFuzzInput (verify_test.go replays them whole).
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
		if seed := fuzzSeed(f, tf); seed != nil {
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
		tf, err := trace.Read(bytes.NewReader(data))
		if err != nil || tf.Config.Perm && tf.Config.N > maxFuzzPermN {
			return
		}
		_ = trace.Replay(tf, reg)
	})
}

// fuzzSeed is tf as compact JSON with as many of its first steps as fit in
// maxFuzzInput (a cycle's start and a premise moved inside them), or nil.
func fuzzSeed(t testing.TB, tf *trace.File) []byte {
	for k := len(tf.Steps); k >= 1; k-- {
		cut := *tf
		cut.Steps = tf.Steps[:k]
		if c := cut.CycleStart; c != nil && *c >= k-1 {
			cut.CycleStart = new(int)
		}
		if p := cut.Premise; p != nil && *p >= k {
			last := k - 1
			cut.Premise = &last
		}
		data, err := json.Marshal(&cut)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > maxFuzzInput {
			continue
		}
		if _, err := trace.Read(bytes.NewReader(data)); err == nil {
			return data
		}
	}
	return nil
}

// The seeds FuzzRead makes of the golden traces fit its cap and read as
// traces, and most golden traces give one: the fuzzing starts from inputs
// that reach the replay, not only the reader.
func TestFuzzSeedsRead(t *testing.T) {
	golden, err := filepath.Glob(filepath.Join("..", "testdata", "golden", "*.trace.json"))
	require.NoError(t, err)
	require.NotEmpty(t, golden)
	seeds := 0
	for _, g := range golden {
		data, err := os.ReadFile(g)
		require.NoError(t, err)
		tf, err := trace.Read(bytes.NewReader(data))
		require.NoError(t, err)
		seed := fuzzSeed(t, tf)
		if seed == nil {
			t.Logf("no seed from %s: not even its first steps fit", g)
			continue
		}
		seeds++
		require.LessOrEqual(t, len(seed), maxFuzzInput, g)
		cut, err := trace.Read(bytes.NewReader(seed))
		require.NoError(t, err, g)
		require.Equal(t, tf.Steps[:len(cut.Steps)], cut.Steps, g)
	}
	require.Greater(t, 2*seeds, len(golden), "golden traces that give FuzzRead a seed")
}

// fuzzing reports whether go test runs with -fuzz. maxFuzzInput caps the
// fuzzer's inputs only: go test without -fuzz reads and replays every
// entry of the seed corpus whole, the larger regression inputs included.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}
