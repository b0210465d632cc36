//go:build !race

package explore

// raceDetector: the tests are built with -race, which runs this package's
// searches ten to thirty times slower.
const raceDetector = false
