//go:build unix

package cli

import (
	"os"

	"golang.org/x/sys/unix"
)

// windowWidth is the terminal's width in columns, or 0.
func windowWidth(f *os.File) int {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
