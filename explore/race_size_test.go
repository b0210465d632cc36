package explore

import (
	"testing"

	"github.com/mcheck/mcheck/internal/slow"
)

// Under the race detector the heaviest tests of this package would take
// go test -race ./explore past its default 10-minute timeout. There they
// check the same rules at a smaller size; without -race (go test ./...,
// and .ci/run's go test -tags slow ./...) and with -race -tags slow they
// run at full size.

// SlimRace reports whether the tests run at their smaller sizes: with
// -race, without -tags slow.
const SlimRace = raceDetector && !slow.On

// RaceSize is full, or small under -race without -tags slow.
func RaceSize(full, small int) int {
	if SlimRace {
		return small
	}
	return full
}

// SkipUnderRace skips t under -race without -tags slow, saying why: a
// case too big for the race detector that runs without it, next to
// smaller cases of the same test that run with it.
func SkipUnderRace(t testing.TB, why string) {
	t.Helper()
	if SlimRace {
		t.Skip("too slow under -race (" + why + "): runs without -race, or with go test -race -tags slow")
	}
}
