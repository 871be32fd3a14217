package model

import (
	"fmt"
	"testing"

	"ohwatch/internal/arena"
)

// TestCachedNameIsOneCopy: a name read twice is the same string, which
// shares no memory with the bytes it was read from; a name longer than the
// cache keeps, or a flood of distinct ones, is still a copy each time.
func TestCachedNameIsOneCopy(t *testing.T) {
	a := []byte("litellm_proxy/anthropic/claude-sonnet-4-5")
	b := []byte("litellm_proxy/anthropic/claude-sonnet-4-5")
	s1, s2 := cachedName(a), cachedName(b)
	if s1 != string(a) || !arena.SameString(s1, s2) {
		t.Errorf("two readings of a name are two strings (%q, %q)", s1, s2)
	}
	a[0] = 'X'
	if s1[0] != 'l' {
		t.Error("the cached name shares the bytes it was read from")
	}
	for i := range 10 * nameSlots {
		n := []byte(fmt.Sprintf("model-%d", i))
		if s := cachedName(n); s != string(n) || arena.StringAddr(s) == arena.Addr(n) {
			t.Fatalf("cachedName(%q) = %q", n, s)
		}
	}
	long := make([]byte, maxCachedName+1)
	if s := cachedName(long); len(s) != len(long) || arena.StringAddr(s) == arena.Addr(long) {
		t.Error("a long name is not copied")
	}
}
