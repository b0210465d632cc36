// Package golden compares test output with files under testdata and
// rewrites them with `go test ./... -update`. Every test package imports it
// (a blank import is enough), because `go test ./... -update` hands the flag
// to every test binary.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// Update is the -update flag: rewrite golden files instead of comparing.
var Update = flag.Bool("update", false, "rewrite golden files under testdata")

// Check compares got with the file at path, or rewrites the file with -update.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file %s: %v (run go test with -update to create it)", path, err)
	}
	if string(want) != string(got) {
		t.Errorf("output differs from %s (run go test with -update if the change is intended)\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}
