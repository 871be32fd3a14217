package files

import (
	"fmt"
	"regexp"
	"testing"
)

// sdkName is the SDK's own file name rule (protocol §10), which
// parseSDKName implements by hand.
var sdkName = regexp.MustCompile(`^event-(\d{5,})-([0-9a-fA-F\-]{8,})\.json$`)

// TestParseSDKNameMatchesTheSDKRule compares the hand-written parser with
// the SDK's regular expression on names that probe each part of it.
func TestParseSDKNameMatchesTheSDKRule(t *testing.T) {
	names := []string{
		"event-00000-65867a0d-6fc0-421d-bafc-7474d174aef8.json",
		"event-123456-abcdef01.json",
		"event-123456789012345678-abcdef01.json",
		"event-9223372036854775807-abcdef01.json",
		"event-0000-abcdef01.json",
		"event-00001-abcdef0.json",
		"event-00001-abcdefgh.json",
		"event-00001-ABCDEF01-.json",
		"event-00001--------.json",
		"event-00001-abcdef01.json.tmp",
		".event-00001-abcdef01.json.123.tmp",
		"event-00001_abcdef01.json",
		"event--00001-abcdef01.json",
		"event-0000a-abcdef01.json",
		"event-00001-abcd/ef01.json",
		"Event-00001-abcdef01.json",
		"event-00001-abcdef01.JSON",
		"event-00001-.json",
		"",
	}
	for _, n := range names {
		f, ok := parseSDKName(n)
		m := sdkName.FindStringSubmatch(n)
		if ok != (m != nil) {
			t.Errorf("%q: parsed %v, the SDK rule says %v", n, ok, m != nil)
			continue
		}
		if ok && (fmt.Sprint(f.Index) != trimZeros(m[1]) || f.ID != m[2]) {
			t.Errorf("%q: index %d id %q, want %s %s", n, f.Index, f.ID, m[1], m[2])
		}
	}
}

// trimZeros drops leading zeros from a decimal string.
func trimZeros(s string) string {
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return s
}

// TestEventFilesOrder orders by index whether the indices are a perfect
// 0..n-1 run (placed directly) or not (sorted), and prefers SDK names to
// the seed layout.
func TestEventFilesOrder(t *testing.T) {
	perfect := []string{"event-00002-abcdef02.json", "event-00000-abcdef00.json", "event-00001-abcdef01.json", ".eventlog.lock"}
	files, seed := eventFiles(perfect)
	if seed || len(files) != 3 || files[0].ID != "abcdef00" || files[2].ID != "abcdef02" {
		t.Fatalf("perfect run: %+v seed %v", files, seed)
	}
	twice := []string{"event-00001-bbbbbbbb.json", "event-00001-aaaaaaaa.json", "event-00000-cccccccc.json"}
	files, _ = eventFiles(twice)
	if files[0].ID != "cccccccc" || files[1].ID != "aaaaaaaa" || files[2].ID != "bbbbbbbb" {
		t.Fatalf("index used twice: %+v", files)
	}
	mixed := []string{"0002_b.json", "0001_a.json", "event-00000-abcdef00.json"}
	files, seed = eventFiles(mixed)
	if seed || len(files) != 1 {
		t.Fatalf("SDK names must win over seed names: %+v", files)
	}
	files, seed = eventFiles([]string{"10_c.json", "2-b.json", "0001.json", "readme.json"})
	if !seed || len(files) != 3 || files[0].Name != "0001.json" || files[2].Name != "10_c.json" {
		t.Fatalf("seed layout: %+v", files)
	}
}
