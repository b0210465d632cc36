// Package refcounts reads testdata/reference-counts.jsonl: configurations
// of mcheck and what an independent implementation of docs/semantics.md (a
// plain Python BFS over full states, written from the text alone) found
// for them. The tests of specs (through the library) and of cli (through
// the command line) check mcheck against it.
package refcounts

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// Row is one line: a configuration (mcheck's flags) and the counts and
// verdicts found for it.
type Row struct {
	Args                string
	States, Transitions int64
	Depth               int
	Discarded           int64
	SingleLeader        Verdict `json:"single_leader"`
	Agreement           Verdict
	Stuck               Stuck
	Termination         *string
}

// Verdict is an invariant's: whether it is violated, and the depth of the
// shallowest violating state.
type Verdict struct {
	Violated bool
	Depth    *int
}

// Stuck says whether a stuck state (no fair step, outside Stable) is
// reachable, and the depth of the shallowest.
type Stuck struct {
	Exists bool
	Depth  *int
}

// SmallRow is the most states of a row the fast tests check (159 of the
// 200 rows, every algorithm and fault model); -tags slow checks every row.
const SmallRow = 5000

// Read reads the rows of the file at path.
func Read(path string) ([]Row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var rows []Row
	for line := 1; sc.Scan(); line++ {
		var row Row
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rows, nil
}
