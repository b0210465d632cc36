package explore

// ChunksInReverse makes one-worker searches of the test run each phase's
// chunks from the last to the first; the returned function undoes it.
func ChunksInReverse() (restore func()) {
	chunksInReverse = true
	return func() { chunksInReverse = false }
}

// SpillEverything makes every search of the test move its frontier and
// parent links to files at once; the returned function undoes it.
func SpillEverything() (restore func()) {
	f, l := spillFrontierAfter, spillLinksAfter
	spillFrontierAfter, spillLinksAfter = 0, 1
	return func() { spillFrontierAfter, spillLinksAfter = f, l }
}
