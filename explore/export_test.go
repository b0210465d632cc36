package explore

// SpillEverything makes every search of the test move its frontier and
// parent links to files at once; the returned function undoes it.
func SpillEverything() (restore func()) {
	f, l := spillFrontierAfter, spillLinksAfter
	spillFrontierAfter, spillLinksAfter = 0, 1
	return func() { spillFrontierAfter, spillLinksAfter = f, l }
}
