package model

import "testing"

func TestNormalizeConversationID(t *testing.T) {
	tests := []struct{ in, want, dashed string }{
		{"e32a6901-3df1-48d6-b9cf-1d2b48c172e8", "e32a69013df148d6b9cf1d2b48c172e8", "e32a6901-3df1-48d6-b9cf-1d2b48c172e8"},
		{"E32A69013DF148D6B9CF1D2B48C172E8", "e32a69013df148d6b9cf1d2b48c172e8", "e32a6901-3df1-48d6-b9cf-1d2b48c172e8"},
		{" {E32A6901-3DF1-48D6-B9CF-1D2B48C172E8} ", "e32a69013df148d6b9cf1d2b48c172e8", "e32a6901-3df1-48d6-b9cf-1d2b48c172e8"},
		{"not-a-uuid", "not-a-uuid", "not-a-uuid"},
		{"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"},
		{"demo\x1b]52;c;aGk=\x07\u202e", "demo\ufffd", "demo\ufffd"},
	}
	for _, tt := range tests {
		if got := NormalizeConversationID(tt.in); got != tt.want {
			t.Errorf("NormalizeConversationID(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := DashedConversationID(tt.in); got != tt.dashed {
			t.Errorf("DashedConversationID(%q) = %q, want %q", tt.in, got, tt.dashed)
		}
	}
}
