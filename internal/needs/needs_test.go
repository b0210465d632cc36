package needs

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRequired(t *testing.T) {
	for _, c := range []struct {
		list string
		set  bool
		ci   string
		need string
		want bool
	}{
		{"", false, "", Browser, false},
		{"", false, "false", Browser, false},
		{"", false, "true", Browser, true},
		{"", false, "TRUE", Quint, true},
		{"", false, "1", Node, true},
		{"", true, "true", Browser, false}, // set but empty: CI=true no longer decides
		{"none", true, "true", Browser, false},
		{"browser,quint", true, "", Browser, true},
		{"browser,quint", true, "", Quint, true},
		{"browser,quint", true, "", Node, false},
		{" Browser , node", true, "", Node, true},
		{"all", true, "", Quint, true},
		{"all", true, "", "elephant", false},
		{"browsers", true, "", Browser, false},
	} {
		assert.Equal(t, c.want, required(c.list, c.set, c.ci, c.need), "MCHECK_REQUIRE=%q (set %v) CI=%q need %s", c.list, c.set, c.ci, c.need)
	}
}

// A missing need fails the test where it is required and skips it
// otherwise, saying why either way.
func TestMissing(t *testing.T) {
	for _, c := range []struct {
		require string
		failed  bool
	}{{"quint", true}, {"none", false}, {"node", false}} {
		t.Setenv("MCHECK_REQUIRE", c.require)
		ft := &fakeT{TB: t}
		func() {
			defer func() { recover() }() // fakeT's Fatalf and Skipf stop the goroutine as t's would
			Missing(ft, Quint, "MCHECK_QUINT_DIR is not set")
		}()
		assert.Equal(t, c.failed, ft.failed, c.require)
		assert.Equal(t, !c.failed, ft.skipped, c.require)
		if c.failed {
			assert.Equal(t, "quint is required here (MCHECK_REQUIRE=quint) but missing: MCHECK_QUINT_DIR is not set", ft.msg)
		} else {
			assert.Equal(t, "MCHECK_QUINT_DIR is not set (skipped: set MCHECK_REQUIRE=quint to make this a failure)", ft.msg)
		}
	}
}

type fakeT struct {
	testing.TB
	failed, skipped bool
	msg             string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed, f.msg = true, fmt.Sprintf(format, args...)
	panic(f)
}
func (f *fakeT) Skipf(format string, args ...any) {
	f.skipped, f.msg = true, fmt.Sprintf(format, args...)
	panic(f)
}
