// Package plural writes counts in English for people: the server's messages and the CLI's
// both use it, so none says "time(s)".
package plural

import "strconv"

// Count is n with its noun, singular for exactly one: Count(1, "time", "times") is "1 time",
// Count(3, "time", "times") "3 times".
func Count(n int, one, many string) string {
	if n == 1 || n == -1 {
		return strconv.Itoa(n) + " " + one
	}
	return strconv.Itoa(n) + " " + many
}
