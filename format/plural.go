package format

import "strconv"

// Plural is a count with its noun, exact: "1 error", "3 errors" (nouns
// that take an s).
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
