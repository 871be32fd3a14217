package sanitize

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestSanitize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"clean ascii", "hello world", "hello world"},
		{"clean multiline", "a\nb\n", "a\nb\n"},
		{"clean unicode", "héllo 👋 日本", "héllo 👋 日本"},
		{"sgr colour", "\x1b[01;34m.cache\x1b[0m", ".cache"},
		{"bracketed paste mode", "\x1b[?2004ltotal 88", "total 88"},
		{"cursor movement", "a\x1b[2J\x1b[H\x1b[10;20Hb", "ab"},
		{"osc title BEL", "x\x1b]0;pwned\x07y", "xy"},
		{"osc title ST", "x\x1b]2;pwned\x1b\\y", "xy"},
		{"osc 52 clipboard", "\x1b]52;c;cm0gLXJmIC8=\x07ok", "ok"},
		{"osc 8 hyperlink", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "click"},
		{"unterminated osc", "a\x1b]0;never ends", "a"},
		{"dcs", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"apc", "a\x1b_Gf=100;AAAA\x1b\\b", "ab"},
		{"pm and sos", "a\x1b^pm\x1b\\b\x1bXsos\x1b\\c", "abc"},
		{"two-char esc", "a\x1bcb\x1b7c\x1b8d", "abcd"},
		{"charset designation", "a\x1b(Bb", "ab"},
		{"lone esc at end", "abc\x1b", "abc"},
		{"8-bit csi", "a\u009b31mred\u009b0m", "ared"},
		{"8-bit osc", "a\u009d0;title\u009cb", "ab"},
		{"8-bit dcs", "a\u0090data\u009cb", "ab"},
		{"other c1", "a\u0085b\u0084c", "a\uFFFDb\uFFFDc"},
		{"carriage return", "progress 10%\rprogress 99%", "progress 10%␍progress 99%"},
		{"crlf kept as newline", "a\r\nb", "a\nb"},
		{"bell and backspace", "a\x07b\bc", "a␇b␈c"},
		{"nul", "a\x00b", "a␀b"},
		{"del", "a\x7fb", "a\u2421b"},
		{"tab stops", "a\tb\n\tc\nabcd\te", "a   b\n    c\nabcd    e"},
		{"bidi override", "access\u202E\u2066 level", "access\uFFFD\uFFFD level"},
		{"bidi marks", "a\u200Eb\u200Fc\u061Cd", "a\uFFFDb\uFFFDc\uFFFDd"},
		{"bidi isolates", "\u2066\u2067\u2068\u2069", "\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"zero width", "a\u200Bb\u200Cc\u200Dd\u2060e\uFEFFf", "a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf"},
		{"line separators", "a\u2028b\u2029c", "a\uFFFDb\uFFFDc"},
		{"tag characters", "hi\U000E0041\U000E0042", "hi\uFFFD\uFFFD"},
		{"invalid utf8", "a\xffb\xc3", "a\uFFFDb\uFFFD"},
		{"esc then c1 csi", "\x1b\u009b", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Text(tt.in)
			if got != tt.want {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
			}
			checkSafe(t, got, true)
			if again := Text(got); again != got {
				t.Errorf("not idempotent: %q -> %q", got, again)
			}
		})
	}
}

func TestSanitizeLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"one line", "one line"},
		{"two\nlines", "two⏎lines"},
		{"crlf\r\nend", "crlf⏎end"},
		{"\x1b[31mred\x1b[0m\ttab", "red tab"},
	}
	for _, tt := range tests {
		if got := Line(tt.in); got != tt.want {
			t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
		}
		checkSafe(t, Line(tt.in), false)
	}
}

func TestSanitizeCleanDoesNotAllocate(t *testing.T) {
	clean := strings.Repeat("plain text, naïve café 👋\n", 20)
	if n := testing.AllocsPerRun(100, func() { _ = Text(clean) }); n != 0 {
		t.Errorf("Text of clean text allocated %v times", n)
	}
	line := strings.Repeat("plain text ", 20)
	if n := testing.AllocsPerRun(100, func() { _ = Line(line) }); n != 0 {
		t.Errorf("Line of clean text allocated %v times", n)
	}
}

// checkSafe fails when s holds anything a terminal would act on.
func checkSafe(t testing.TB, s string, multiline bool) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("invalid UTF-8 in %q", s)
	}
	for i, r := range s {
		switch {
		case r == '\n' && multiline:
		case r == zwj && emojiJoiner(r, s[:i], s[i+utf8.RuneLen(r):]):
		case r < 0x20 || r == 0x7f:
			t.Fatalf("control %U in %q", r, s)
		case r >= 0x80 && r <= 0x9f:
			t.Fatalf("C1 %U in %q", r, s)
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			t.Fatalf("bidi %U in %q", r, s)
		case r >= 0x200b && r <= 0x200d, r == 0x2060, r == 0xfeff, r == 0x2028, r == 0x2029:
			t.Fatalf("invisible %U in %q", r, s)
		}
	}
}

func FuzzText(f *testing.F) {
	for _, s := range []string{
		"hello", "\x1b[31mred\x1b[0m", "\x1b]52;c;Zm9v\x07", "\x1b]8;;http://x\x1b\\l\x1b]8;;\x1b\\",
		"\u009b2J", "\u009d0;t\u009c", "a\rb", "\t\tx", "\u202Eevil", "\xff\xfe", "\x1bP", "\x1b", "\r\n",
		"\u200Bzw", "\U000E0041", "é\x1b[", "\x1b[?1049h",
		"👩\u200d👩\u200d👧\u200d👦", "❤\ufe0f\u200d🔥", "\x1b😀\u200d😀", "😀\u200d\u200d😀", "a\u200d😀",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, multiline := range []bool{true, false} {
			out := Text(s)
			if !multiline {
				out = Line(s)
			}
			checkSafe(t, out, multiline)
			if strings.ContainsRune(out, 0x1b) {
				t.Fatalf("ESC left in %q", out)
			}
			again := Text(out)
			if !multiline {
				again = Line(out)
			}
			if again != out {
				t.Fatalf("not idempotent: %q -> %q -> %q", s, out, again)
			}
		}
	})
}

// TestUnprintableMatchesTables checks the fast ranges of unprintable
// against the Unicode tables for every rune.
func TestUnprintableMatchesTables(t *testing.T) {
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		want := r <= 0x9f || r == 0x2028 || r == 0x2029 || r >= 0xd800 && r <= 0xdfff ||
			r >= 0xfdd0 && r <= 0xfdef || r&0xfffe == 0xfffe || unicode.Is(unicode.Cf, r)
		if got := unprintable(r); got != want {
			t.Fatalf("unprintable(%U) = %v, want %v", r, got, want)
		}
	}
}

// TestEmojiJoinersKept: a zero-width joiner inside an emoji sequence is
// kept, so the family, the burning heart and the rainbow flag stay one
// glyph; one that could hide text (between letters, at an end, doubled)
// is still replaced.
func TestEmojiJoinersKept(t *testing.T) {
	for in, want := range map[string]string{
		"👩\u200d👩\u200d👧\u200d👦":      "👩\u200d👩\u200d👧\u200d👦",
		"❤\ufe0f\u200d🔥":              "❤\ufe0f\u200d🔥",
		"🏳\ufe0f\u200d🌈":              "🏳\ufe0f\u200d🌈",
		"👍🏽 and 👩🏽\u200d💻":            "👍🏽 and 👩🏽\u200d💻",
		"pay\u200dpal":                "pay\ufffdpal",
		"😀\u200dx":                    "😀\ufffdx",
		"x\u200d😀":                    "x\ufffd😀",
		"😀\u200d\u200d😀":              "😀\ufffd\ufffd😀",
		"😀\u200d":                     "😀\ufffd",
		"\u200d😀":                     "\ufffd😀",
		"\x1b[31m😀\x1b[0m\u200d😀":     "😀\u200d😀",
		"😀\u200b😀":                    "😀\ufffd😀",
		"\x1b\xf0\x9f\x98\x80\u200d😀": "😀\u200d😀",
	} {
		for _, got := range []string{Text(in), Line(in)} {
			if got != want {
				t.Errorf("Text(%q) = %q, want %q", in, got, want)
			}
			if again := Text(got); again != got {
				t.Errorf("not idempotent: %q -> %q", got, again)
			}
		}
	}
}

// BenchmarkText sanitises clean and hostile multi-line output.
func BenchmarkText(b *testing.B) {
	clean := strings.Repeat("total 88\ndrwxr-xr-x 11 user user 4096 Feb 18 17:08 . héllo 👋\n", 50)
	hostile := strings.Repeat("\x1b[01;34m.cache\x1b[0m\r\n\ttab\u202Eevil\x1b]0;t\x07 ok\x7f\n", 50)
	for _, c := range []struct{ name, s string }{{"clean", clean}, {"hostile", hostile}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			b.ReportAllocs()
			for b.Loop() {
				_ = Text(c.s)
			}
		})
	}
}
