package myring

import (
	"testing"

	"github.com/mcheck/mcheck/mchecktest"
)

func TestMyRing(t *testing.T) {
	mchecktest.Check(t, Algorithm{}, mchecktest.Config{N: 4})
}
