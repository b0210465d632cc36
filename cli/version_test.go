package cli

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestVersionText(t *testing.T) {
	mcheck := debug.Module{Path: "github.com/mcheck/mcheck", Version: "v0.4.0"}
	for _, c := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"installed", &debug.BuildInfo{GoVersion: "go1.26.0", Main: mcheck},
			"mcheck github.com/mcheck/mcheck v0.4.0, go1.26.0"},
		{"a clone", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/mcheck/mcheck", Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "5d087f4aaaaaaaaaaaaa"}, {Key: "vcs.modified", Value: "true"}}},
			"mcheck github.com/mcheck/mcheck (devel) (revision 5d087f4aaaaa, with uncommitted changes), go1.26.0"},
		{"a course's mcheck", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "example.com/coursework"},
			Deps: []*debug.Module{{Path: "github.com/mcheck/mcheck", Version: "v0.0.0", Replace: &debug.Module{Path: "../mcheck"}}}},
			"mcheck github.com/mcheck/mcheck v0.0.0, replaced by ../mcheck in example.com/coursework, go1.26.0"},
		{"not a dependency", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "example.com/x"}},
			"mcheck (version unknown: github.com/mcheck/mcheck is not among the modules of example.com/x) in example.com/x, go1.26.0"},
	} {
		assert.Equal(t, c.want, version(c.bi, true), c.name)
	}
	assert.Contains(t, version(nil, false), "version unknown")
}
