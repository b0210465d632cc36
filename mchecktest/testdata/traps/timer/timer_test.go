package timer

import (
	"testing"

	"github.com/mcheck/mcheck/mchecktest"
)

func TestCheck(t *testing.T) {
	mchecktest.Check(t, Algorithm{}, mchecktest.Config{N: 3})
}
