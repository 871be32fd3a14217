package reducer

import "testing"

func TestKnownKindsMatchTheirIndex(t *testing.T) {
	for i, name := range knownKinds() {
		if got := kindIndex(name); got != i {
			t.Errorf("kindIndex(%q) = %d, want %d", name, got, i)
		}
	}
	if kindIndex("NoSuchEvent") != -1 {
		t.Error("an unknown kind has an index")
	}
}
