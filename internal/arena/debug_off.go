//go:build !arenadebug

package arena

// debugUnmap is false in a normal build: released blocks are pooled or
// their pages given back, their addresses still mapped.
const debugUnmap = false
