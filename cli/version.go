package cli

import (
	"fmt"
	"reflect"
	"runtime/debug"
	"strings"
)

// modulePath is mcheck's module path, read off this package's import path
// so that a fork or a rename needs no edit here.
var modulePath = strings.TrimSuffix(reflect.TypeFor[options]().PkgPath(), "/cli")

// version describes the mcheck module this binary was built with: its
// version when it came from a module proxy (go install ...@v1.2.0), and
// otherwise "(devel)" with the VCS revision, or the directory a course's
// go.mod replaces it with.
func version(bi *debug.BuildInfo, ok bool) string {
	if !ok || bi == nil {
		return "mcheck (version unknown: built without module information)"
	}
	mod := &bi.Main
	if mod.Path != modulePath {
		mod = nil
		for _, d := range bi.Deps {
			if d.Path == modulePath {
				mod = d
			}
		}
	}
	var b strings.Builder
	switch {
	case mod == nil:
		fmt.Fprintf(&b, "mcheck (version unknown: %s is not among the modules of %s)", modulePath, bi.Main.Path)
	case mod.Replace != nil && mod.Replace.Version == "":
		fmt.Fprintf(&b, "mcheck %s %s, replaced by %s", modulePath, mod.Version, mod.Replace.Path)
	case mod.Replace != nil:
		fmt.Fprintf(&b, "mcheck %s %s, replaced by %s %s", modulePath, mod.Version, mod.Replace.Path, mod.Replace.Version)
	default:
		fmt.Fprintf(&b, "mcheck %s %s", modulePath, mod.Version)
	}
	if mod != nil && mod == &bi.Main {
		var rev, modified string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = ", with uncommitted changes"
				}
			}
		}
		if rev != "" {
			fmt.Fprintf(&b, " (revision %.12s%s)", rev, modified)
		}
	}
	if bi.Main.Path != modulePath && bi.Main.Path != "" {
		fmt.Fprintf(&b, " in %s", bi.Main.Path)
	}
	fmt.Fprintf(&b, ", %s", bi.GoVersion)
	return b.String()
}
