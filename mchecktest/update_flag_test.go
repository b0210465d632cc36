package mchecktest_test

// go test ./... -update hands -update to every test binary.
import _ "github.com/mcheck/mcheck/internal/golden"
