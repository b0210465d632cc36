//go:build !slow

package slow

// On reports whether the slow tests run: the build tag slow is set.
const On = false
