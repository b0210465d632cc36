// Package plural writes counts in English: "1 message", "3 messages".
package plural

import (
	"strconv"
	"strings"
)

// Integer is any count.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Count is n and the noun, in the plural unless n is 1: "1 step",
// "0 steps", "2 processes".
func Count[T Integer](n T, noun string) string {
	return strconv.FormatInt(int64(n), 10) + " " + Noun(n, noun)
}

// Noun is the noun for n of it (the singular noun given), for counts
// written otherwise (with thousands separators): "states", "state".
func Noun[T Integer](n T, noun string) string {
	if n == 1 {
		return noun
	}
	return Of(noun)
}

// Of is the plural of a singular noun, by English's regular rules:
// process -> processes, property -> properties, step -> steps.
func Of(noun string) string {
	switch {
	case strings.HasSuffix(noun, "s"), strings.HasSuffix(noun, "x"), strings.HasSuffix(noun, "ch"), strings.HasSuffix(noun, "sh"):
		return noun + "es"
	case len(noun) > 1 && strings.HasSuffix(noun, "y") && !strings.ContainsAny(noun[len(noun)-2:len(noun)-1], "aeiou"):
		return noun[:len(noun)-1] + "ies"
	}
	return noun + "s"
}
