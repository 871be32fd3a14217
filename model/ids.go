package model

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"ohwatch/internal/sanitize"
)

// NormalizeConversationID returns a conversation id in the one form used as
// a key throughout ohwatch: lowercase 32-char hex without dashes. The dashed
// UUID of base_state.json and REST and the hex of meta.json, directory names
// and the Cloud are the same conversation. Anything that is not a UUID is
// returned trimmed, lowercased and made safe for one line of a terminal
// (SanitizeLine): ids come from servers and files, and every listing and
// header shows them.
func NormalizeConversationID(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimPrefix(strings.TrimSuffix(s, "}"), "{")
	if hex := strings.ReplaceAll(s, "-", ""); isHexID(hex) {
		return hex
	}
	return sanitize.Line(s)
}

// IsConversationID reports whether s is a conversation id as servers
// spell it: a UUID, dashed or not, in either case (braces allowed).
func IsConversationID(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimPrefix(strings.TrimSuffix(s, "}"), "{")
	return isHexID(strings.ReplaceAll(s, "-", ""))
}

// isHexID reports whether s is 32 lowercase hex digits.
func isHexID(s string) bool {
	if len(s) != 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// DashedConversationID returns the dashed UUID form (8-4-4-4-12) of a
// conversation id, as REST paths and base_state.json spell it; ids that are
// not UUIDs are returned as NormalizeConversationID gives them.
func DashedConversationID(s string) string {
	h := NormalizeConversationID(s)
	if !isHexID(h) {
		return h
	}
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// CheckConversationID refuses a conversation id that cannot name one conversation in
// a URL or a directory: empty, "." or "..", or holding anything but
// letters, digits, '-' and '_' (a '/', an escape sequence, a space). An id
// is refused rather than cleaned, so that two ids never become one.
func CheckConversationID(id string) error {
	if id == "" {
		return errors.New("a conversation without an id")
	}
	if len(id) > maxIDBytes {
		return fmt.Errorf("a conversation id of %d bytes (at most %d)", len(id), maxIDBytes)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("conversation id %q is not one path segment of letters, digits, '-' and '_'", sanitize.Line(id))
		}
	}
	return nil
}

// maxIDBytes bounds a conversation id: a UUID is 36 bytes.
const maxIDBytes = 128

// Caps on what a listing's fields keep when read: a title is shown cut to
// a line anyway, and a status is one word; a source that sends megabytes
// in either costs no more than this per conversation.
const (
	MaxTitleBytes  = 512
	MaxStatusBytes = 64
)

// CapBytes cuts s to at most n bytes, at a rune boundary, "…" marking a
// cut.
func CapBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := max(0, n-len("…"))
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
