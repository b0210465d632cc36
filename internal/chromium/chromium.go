// Package chromium finds the Chromium that tests render and drive pages
// with. .ci/run installs it from the Debian packages when it is missing.
package chromium

import (
	"os"
	"os/exec"
)

// Find returns the path of a Chromium, or "" and why there is none.
func Find() (path, why string) {
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium", ""
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, ""
		}
	}
	return "", "no chromium: neither /usr/bin/chromium nor chromium on PATH (apt-get install chromium, as .ci/run does when it runs as root)"
}
