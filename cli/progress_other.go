//go:build !unix

package cli

import "os"

// windowWidth is 0 where the width is not known: $COLUMNS or 80 is used.
func windowWidth(*os.File) int { return 0 }
