package sanitize

import (
	"ohwatch/internal/jsonx"

	"strings"
	"unicode"
	"unicode/utf8"
)

// TabWidth is the tab stop Text expands tabs to: a tab becomes the
// spaces up to the next multiple of TabWidth columns (counted in runes since
// the last newline), so output lines up without handing the terminal a tab.
const TabWidth = 4

// Visible markers that take the place of characters a terminal would act on.
const (
	// markerUnprintable replaces C1 controls, bidi controls, zero-width and
	// other invisible format characters, line/paragraph separators and
	// invalid UTF-8: each would otherwise silently change what is shown.
	markerUnprintable = '\uFFFD'
	// markerDEL is the control picture for DEL (0x7F).
	markerDEL = '\u2421'
	// markerNewline stands for a newline in one-line text.
	markerNewline = '\u23CE'
)

// Text makes untrusted text safe to print on a terminal while keeping it
// readable over several lines. Escape sequences (CSI, OSC including OSC 8
// and OSC 52, DCS, APC, PM, SOS, and two-character ESC sequences, in their
// 7-bit and 8-bit forms) are removed entirely, since they would move the
// cursor, retitle the window or write the clipboard. Other C0 controls
// become their visible control pictures (␍, ␇, ␈, …), except that `\n` is
// kept, `\r\n` is kept as `\n` and tabs expand to spaces (TabWidth). DEL,
// C1 controls, bidi overrides and isolates, zero-width and other invisible
// format characters and invalid UTF-8 become a visible marker, so hidden
// text cannot masquerade as something else (Trojan Source). Only a
// zero-width joiner between two pictographs, inside an emoji sequence
// (👩‍👩‍👧‍👦), is kept.
//
// The result has no byte a terminal interprets, is valid UTF-8, and is
// unchanged by a second Text. A string that is already clean is
// returned as is, without allocating.
func Text(s string) string {
	if isClean(s, true) {
		return s
	}
	return sanitizeSlow(s, true)
}

// Line is Text for text shown on one line (list rows, headless
// lines, headers): newlines become a visible ⏎ as well.
func Line(s string) string {
	if isClean(s, false) {
		return s
	}
	return sanitizeSlow(s, false)
}

// isClean reports whether s needs no change: printable ASCII (plus `\n`
// when multiline) and printable valid UTF-8.
func isClean(s string, multiline bool) bool {
	for i := 0; i < len(s); {
		// Eight bytes of printable ASCII at a time: most text is.
		for i+8 <= len(s) {
			w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
				uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
			if jsonx.HasLess(w, 0x20)|jsonx.HasZero(w^(jsonx.Ones*0x7f))|w&(jsonx.Ones*0x80) != 0 {
				break
			}
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != 0x7f || c == '\n' && multiline {
				i++
				continue
			}
			return false
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || unprintable(r) && !emojiJoiner(r, s[:i], s[i+size:]) {
			return false
		}
		i += size
	}
	return true
}

// zwj is the zero-width joiner.
const zwj = '\u200D'

// emojiJoiner reports whether r is a zero-width joiner that joins two
// pictographs into one emoji (👩‍👩‍👧‍👦, ❤️‍🔥, 🏳️‍🌈): it follows a pictograph,
// its variation selector or skin tone, and precedes a pictograph. There it
// cannot hide text, and the terminal draws the sequence as one glyph; a
// joiner anywhere else stays replaced. before is the text already kept
// ahead of it, after the text that follows.
func emojiJoiner(r rune, before, after string) bool {
	if r != zwj {
		return false
	}
	prev, _ := utf8.DecodeLastRuneInString(before)
	next, _ := utf8.DecodeRuneInString(after)
	return (pictograph(prev) || prev == 0xFE0F) && pictograph(next)
}

// pictograph reports whether r is an emoji pictograph or a skin-tone
// modifier: the blocks that hold Extended_Pictographic characters.
func pictograph(r rune) bool {
	switch {
	case r >= 0x1F000 && r <= 0x1FAFF: // emoji, symbols and pictographs, skin tones
		return true
	case r >= 0x2600 && r <= 0x27BF: // miscellaneous symbols, dingbats (❤, ☠, ✈)
		return true
	case r >= 0x2300 && r <= 0x23FF, r >= 0x2B00 && r <= 0x2BFF: // ⌚ ⏳, ⬛ ⭐
		return true
	case r == 0x00A9, r == 0x00AE, r == 0x203C, r == 0x2049, r == 0x2122, r == 0x2139:
		return true
	}
	return false
}

// unprintable reports whether a non-ASCII rune must not reach a terminal as
// itself: C1 controls, format characters (bidi marks, overrides and isolates,
// zero-width characters, the BOM, tag characters), line and paragraph
// separators, surrogates and noncharacters.
func unprintable(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028 || r == 0x2029:
		return true
	case r >= 0xfdd0 && r <= 0xfdef, r&0xfffe == 0xfffe:
		return true
	case r >= 0xd800 && r <= 0xdfff:
		return true
	case r >= 0xa0 && r < 0x600 && r != 0xad, r >= 0x2070 && r < 0xfdd0, r >= 0x1f000 && r < 0xe0000:
		// Ranges without a format character, to skip the table search for
		// most accented, CJK and emoji text.
		return false
	}
	return unicode.Is(unicode.Cf, r)
}

// sanitizeSlow builds the sanitised copy of s.
func sanitizeSlow(s string, multiline bool) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	col := 0 // runes since the last newline, for tab stops
	put := func(r rune) {
		b.WriteRune(r)
		col++
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == 0x1b:
				i = skipEscape(s, i+1)
				continue
			case c == '\n':
				if multiline {
					b.WriteByte('\n')
					col = 0
				} else {
					put(markerNewline)
				}
			case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
				// A CRLF line ending cannot overwrite anything: keep the line break.
			case c == '\t':
				n := TabWidth - col%TabWidth
				for range n {
					b.WriteByte(' ')
				}
				col += n
			case c < 0x20:
				put(0x2400 + rune(c)) // the control pictures: ␀ … ␟
			case c == 0x7f:
				put(markerDEL)
			default:
				b.WriteByte(c)
				col++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			put(markerUnprintable)
			i++
			continue
		}
		switch r {
		case 0x9b: // 8-bit CSI
			i = skipCSI(s, i+size)
			continue
		case 0x9d, 0x90, 0x98, 0x9e, 0x9f: // 8-bit OSC, DCS, SOS, PM, APC
			i = skipString(s, i+size)
			continue
		}
		// The joiner's neighbour ahead is judged as kept, so a second pass
		// decides the same (idempotence).
		if unprintable(r) && !emojiJoiner(r, b.String(), s[i+size:]) {
			put(markerUnprintable)
		} else {
			b.WriteString(s[i : i+size])
			col++
		}
		i += size
	}
	return b.String()
}

// skipEscape returns the index just past the escape sequence whose ESC was
// at i-1.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(s, i+1)
	}
	// nF sequences: intermediates 0x20–0x2F, then a final byte 0x30–0x7E.
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI returns the index just past a control sequence whose introducer
// ends at i: parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F and a
// final byte 0x40–0x7E. A malformed sequence ends at the first byte that
// does not fit, which is then processed as ordinary text.
func skipCSI(s string, i int) int {
	for i < len(s) && s[i] >= 0x30 && s[i] <= 0x3f {
		i++
	}
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipString returns the index just past a control string (OSC, DCS, SOS,
// PM, APC) whose introducer ends at i. It ends at BEL, at ST (ESC \ or the
// 8-bit U+009C), or at the end of s: an unterminated string swallows the
// rest, as a terminal would.
func skipString(s string, i int) int {
	for i < len(s) {
		switch c := s[i]; {
		case c == 0x07:
			return i + 1
		case c == 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			// ESC that is not ST cancels the string; the new sequence is
			// handled by the caller.
			return i
		case c == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2
		}
		i++
	}
	return i
}
