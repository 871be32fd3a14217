package redact

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

func TestRedactEveryEncoding(t *testing.T) {
	const key = "sk-oh-5F1b4a7e9d3c2b1a0f9e8d7c"
	jsonEscaped := func(s string) string {
		var b strings.Builder
		for _, r := range s {
			b.WriteString(`\u00`)
			b.WriteString(strings.ToLower(string("0123456789abcdef"[r>>4]) + string("0123456789abcdef"[r&15])))
		}
		return b.String()
	}
	pctAll := func(s string) string {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			b.WriteString("%" + strings.ToUpper(string("0123456789abcdef"[s[i]>>4])+string("0123456789abcdef"[s[i]&15])))
		}
		return b.String()
	}
	marshalled, _ := json.Marshal("a/" + key)
	for _, tc := range []struct{ name, in string }{
		{"exact", "key " + key + " rejected"},
		{"upper", "KEY " + strings.ToUpper(key) + " REJECTED"},
		{"lower", strings.ToLower(key)},
		{"json unicode escapes", `{"detail":"` + jsonEscaped(key) + `"}`},
		{"json marshalled", string(marshalled)},
		{"url query escape", "/x?k=" + url.QueryEscape(key)},
		{"url all escaped", pctAll(key)},
		{"python hex escapes", `b'\x73\x6b\x2d` + key[3:] + `'`},
		{"escaped slashes and dashes", strings.ReplaceAll(key, "-", `\-`)},
		{"prefix", "your key " + key[:20] + "… is wrong"},
		{"suffix", "…" + key[len(key)-16:]},
		{"middle upper", strings.ToUpper(key[5:25])},
		{"twice", key + key},
		// Long runs around escapes that decode and escapes that do not:
		// the cheap pass skips runs and looks only near a decoded escape.
		{"escaped inside a long event", strings.Repeat(`text \"quoted\" \n `, 50) + strings.ReplaceAll(key, "-", `\u002d`) + strings.Repeat(` more\n`, 50)},
		// Half the key, its first byte escaped: no run of the plain text is
		// long enough to redact; only the decoded form shows the piece.
		{"only decoding shows it", strings.Repeat("z", 50) + `\u0073` + key[1:15] + " and no more"},
		{"escaped first and last", strings.Repeat("x", 99) + `\u0073` + key[1:len(key)-1] + `%63` + strings.Repeat("y", 99)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Text(tc.in, key)
			if !strings.Contains(got, Redacted) {
				t.Fatalf("Redact(%q) = %q: nothing redacted", tc.in, got)
			}
			low := strings.ToLower(got)
			for i := 0; i+minPartial <= len(key); i++ {
				piece := strings.ToLower(key[i : i+15])
				if i+15 <= len(key) && strings.Contains(low, piece) {
					t.Fatalf("Redact(%q) = %q keeps %q", tc.in, got, piece)
				}
				if i+15 >= len(key) {
					break
				}
			}
		})
	}
	// Ordinary text, short pieces and other hex stay as they are.
	for _, in := range []string{
		"set SESSION_API_KEY or --session-key-file",
		"sk-oh-5f1b", // 10 bytes: less than half the key
		"GET /api/conversations/0123456789abcdef0123456789abcdef/events/search: 401 Unauthorized",
		"",
	} {
		if got := Text(in, key); got != in {
			t.Errorf("Redact(%q) = %q, want it unchanged", in, got)
		}
	}
	// A short key goes where it stands as a token, and only there: inside
	// words and JSON names it is ordinary text.
	for in, want := range map[string]string{
		"k is k":                    "[redacted] is [redacted]",
		"think of the kind of key":  "think of the kind of key",
		`{"kind":"x","key":"k"}`:    `{"kind":"x","key":"[redacted]"}`,
		"Authorization: Bearer k\n": "Authorization: Bearer [redacted]\n",
		"key=k&k2=kk":               "key=[redacted]&k2=kk",
	} {
		if got := Text(in, "k"); got != want {
			t.Errorf("Redact(%q, \"k\") = %q, want %q", in, got, want)
		}
	}
}

// standsAlone reports whether secret occurs in s with no key character
// (isKeyByte) on either side.
func standsAlone(s, secret string) bool {
	for i := 0; ; i++ {
		at := strings.Index(s[i:], secret)
		if at < 0 {
			return false
		}
		at += i
		end := at + len(secret)
		if (at == 0 || !isKeyByte(s[at-1])) && (end == len(s) || !isKeyByte(s[end])) {
			return true
		}
		i = at
	}
}

func TestSecretsLearnAsTheyGo(t *testing.T) {
	var s Secrets
	s.Add("")
	s.Add("first-secret-0123456789")
	if got := s.Redact("first-secret-0123456789 second-secret-9876543210"); got != "[redacted] second-secret-9876543210" {
		t.Errorf("got %q", got)
	}
	s.Add("second-secret-9876543210")
	if got := s.Redact("x second-secret-9876543210"); got != "x [redacted]" {
		t.Errorf("got %q", got)
	}
	var none *Secrets
	if none.Redact("a") != "a" {
		t.Error("a nil set changed the text")
	}
}

// FuzzRedact: Redact never panics, never lengthens a clean text, and never
// leaves the secret itself, in any case, in what it returns.
func FuzzRedact(f *testing.F) {
	f.Add("x sk-oh-5f1b4a7e9d3c2b1a0f9e8d7c y", "sk-oh-5f1b4a7e9d3c2b1a0f9e8d7c")
	f.Add(`%73%6b\u002d\x`, "sk-")
	f.Add("\\", "\\")
	f.Fuzz(func(t *testing.T, text, secret string) {
		got := Text(text, secret)
		if secret == "" {
			if got != text {
				t.Fatalf("no secret, text changed: %q", got)
			}
			return
		}
		lower := func(s string) string {
			b := []byte(s)
			for i, c := range b {
				if 'A' <= c && c <= 'Z' {
					b[i] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
		if strings.ContainsAny(lower(secret), Redacted) {
			return // the secret could be read across the marker itself
		}
		if len(secret) < minPartial && isKeyByte(secret[0]) && isKeyByte(secret[len(secret)-1]) {
			// A short secret of key characters goes where it stands alone
			// (redactToken); any other short one wherever it is written.
			if standsAlone(got, secret) {
				t.Fatalf("Redact(%q, %q) = %q keeps the short secret as a token", text, secret, got)
			}
			return
		}
		if len(secret) < minPartial {
			lower = func(s string) string { return s } // as written only
		}
		if strings.Contains(lower(got), lower(secret)) {
			t.Fatalf("Redact(%q, %q) = %q keeps the secret", text, secret, got)
		}
	})
}

// BenchmarkRedact measures redaction of a headless line that holds no
// secret (the common case) and of one that echoes it.
func BenchmarkRedact(b *testing.B) {
	const key = "sk-oh-5f1b4a7e9d3c2b1a0f9e8d7c6b5a4"
	clean := strings.Repeat(`{"type":"event","index":42,"summary":"terminal: go test ./... exit 0 in 3.2s"} `, 40)
	for _, tc := range []struct{ name, text string }{
		{"clean", clean},
		{"echoed", clean + url.QueryEscape(key) + clean},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var owner Secrets // as every caller that redacts more than once
			owner.Add(key)
			b.SetBytes(int64(len(tc.text)))
			b.ReportAllocs()
			for b.Loop() {
				owner.Redact(tc.text)
			}
		})
	}
}

// BenchmarkRedactFleet redacts a clean line for each of 100 owners in
// turn, each with its own key, as a fleet's feeds do (a Cloud fleet of 64
// sandboxes and the account is 65 keys): the prepared forms of a key must
// outlast the other owners' use of theirs.
func BenchmarkRedactFleet(b *testing.B) {
	clean := strings.Repeat(`{"type":"event","index":42,"summary":"terminal: go test ./... exit 0 in 3.2s"} `, 4)
	owners := make([]*Secrets, 100)
	for i := range owners {
		owners[i] = new(Secrets)
		owners[i].Add(fmt.Sprintf("sk-oh-%02d5f1b4a7e9d3c2b1a0f9e8d7c6b5a4", i))
	}
	b.SetBytes(int64(len(clean)))
	b.ReportAllocs()
	k := 0
	for b.Loop() {
		owners[k%len(owners)].Redact(clean)
		k++
	}
}

// TestSecretsPrepareEachKeyOnce: a fleet's owners, each with its own key
// (100, more than the 64 a shared cache held), redact clean text in turn
// without preparing a key's forms again: no allocation at all. A shared
// cache cleared whole past 64 keys prepared them on every call.
func TestSecretsPrepareEachKeyOnce(t *testing.T) {
	owners := make([]*Secrets, 100)
	for i := range owners {
		owners[i] = new(Secrets)
		owners[i].Add(fmt.Sprintf("sk-oh-%02d5f1b4a7e9d3c2b1a0f9e8d7c6b5a4", i))
	}
	const clean = `{"type":"event","index":42,"summary":"terminal: go test ./... exit 0 in 3.2s"}`
	k := 0
	if n := testing.AllocsPerRun(300, func() {
		owners[k%len(owners)].Redact(clean)
		k++
	}); n != 0 {
		t.Errorf("%.1f allocations a line", n)
	}
	if got := owners[7].Redact("key " + "sk-oh-075f1b4a7e9d3c2b1a0f9e8d7c6b5a4"); got != "key "+Redacted {
		t.Errorf("owner 7's key: %q", got)
	}
}
