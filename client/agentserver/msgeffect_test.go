package agentserver

import "testing"

func TestMessageEffectOfVersion(t *testing.T) {
	for _, tc := range []struct {
		version string
		want    MessageEffect
	}{
		{"1.43.1", MessageEffectApproves},
		{"v1.43.1", MessageEffectApproves},
		{"1.30.0", MessageEffectApproves},
		{"1.43.2", MessageEffectUnknown},
		{"1.64.0", MessageEffectUnknown},
		{"", MessageEffectUnknown},
		{"unknown", MessageEffectUnknown},
	} {
		if got := MessageEffectOf(tc.version); got != tc.want {
			t.Errorf("MessageEffectOf(%q) = %v, want %v", tc.version, got, tc.want)
		}
	}
}
