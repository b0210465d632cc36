package cli

import (
	"errors"
	"flag"
	"strings"
	"testing"

	"github.com/mcheck/mcheck/internal/flagval"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// FuzzArgs feeds arbitrary command lines (arguments separated by tabs, so that an argument may hold a newline) to the
// parsing and validation of a check, as Main does them, without running a
// search: any input is either accepted as a valid configuration or refused
// with a one-line message; nothing panics. The seed corpus is
// testdata/fuzz/FuzzArgs.
func FuzzArgs(f *testing.F) {
	for _, seed := range []string{
		"--algo\tbully\t--n\t4\t--crash-any",
		"--algo=chang-roberts\t--ids\t3,9,4,8\t--crashes\t1\t--restarts\t1",
		"--algo\tlelann\t--detector\tunreliable\t--initiators\t1,2\t--down\t3\t--max-queue\t2",
		"--algo\tring\t--check\tsafety\t--memory\t2GiB\t--bitstate\t1MiB\t--exact",
		"--algo\thirschberg-sinclair\t--initial-leader=false\t--max-states\t-1\t--workers\t-2",
		"--n\t0", "--algo\tnope", "--msc\tx.png\t--algo\tbully", "--memory\t1.5e30", "extra",
	} {
		f.Add(seed)
	}
	reg := specs.Builtin()
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\t")
		o, err := parseForFuzz(args, reg)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || msg == "" {
				t.Fatalf("not a one-line error: %q", msg)
			}
			return
		}
		if o.cfg.N < 2 || o.cfg.N > model.MaxN {
			t.Fatalf("accepted N=%d", o.cfg.N)
		}
		if err := o.cfg.WithDefaults().Validate(); err != nil {
			t.Fatalf("accepted an invalid configuration: %v", err)
		}
	})
}

// parseForFuzz is Main up to the search: flags, the algorithm, defaults
// and cross-flag rules, with Main's error wording.
func parseForFuzz(args []string, reg *specs.Registry) (*options, error) {
	var o options
	fs := newFlagSet(&o)
	if err := flagval.Parse(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, errors.New(oneLine(err.Error()))
	}
	if fs.NArg() > 0 {
		return nil, errors.New("unexpected argument")
	}
	if o.algo == "" {
		return nil, errors.New("no algorithm")
	}
	spec, err := reg.Lookup(o.algo)
	if err != nil {
		return nil, err
	}
	if err := o.finish(fs, spec); err != nil {
		return nil, err
	}
	return &o, nil
}
