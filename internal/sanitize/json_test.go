package sanitize

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTerminalSafeJSON(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"clean", `{"a": "b",` + "\n" + ` "c": [1, 2]}`, `{"a":"b","c":[1,2]}`},
		{"C1 byte pair (U+009B CSI)", "{\"t\":\"x\u009b2Jy\"}", `{"t":"x\u009b2Jy"}`},
		{"right-to-left override", "{\"t\":\"abc\u202Etxt.exe\"}", `{"t":"abc\u202etxt.exe"}`},
		{"invalid UTF-8", "{\"t\":\"a\xff\x9bb\"}", `{"t":"a\ufffd\ufffdb"}`},
		{"line separator and zero-width", "{\"t\":\"a\u2028b\u200bc\"}", `{"t":"a\u2028b\u200bc"}`},
		{"tag character (outside the BMP)", "{\"t\":\"a\U000E0041\"}", `{"t":"a\udb40\udc41"}`},
		{"accents, CJK and emoji stay", `{"t":"é 中文 🙂"}`, `{"t":"é 中文 🙂"}`},
	} {
		got, ok := JSON([]byte(tc.in))
		if !ok || string(got) != tc.want {
			t.Errorf("%s: got %s (%v), want %s", tc.name, got, ok, tc.want)
		}
	}
	if _, ok := JSON([]byte("{\"t\":\"\x1b[2J\"}")); ok {
		t.Error("a raw ESC inside a string is not JSON")
	}
}

// FuzzJSON: the result is valid JSON on one line, valid UTF-8,
// holds nothing Text would change, and decodes to the same value as
// the input whenever the input is valid UTF-8.
func FuzzJSON(f *testing.F) {
	f.Add([]byte("{\"t\":\"x\u009b\u202e\u2028\xff\"}"))
	f.Add([]byte(`[1, "a", {"b": null}]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, ok := JSON(raw)
		if !ok {
			if json.Valid(raw) {
				t.Fatalf("valid JSON refused: %q", raw)
			}
			return
		}
		if !json.Valid(got) || bytes.ContainsAny(got, "\n\r") || !utf8.Valid(got) {
			t.Fatalf("JSON(%q) = %q", raw, got)
		}
		if Line(string(got)) != string(got) {
			t.Fatalf("JSON(%q) = %q still holds what Text changes", raw, got)
		}
		if utf8.Valid(raw) {
			var a, b any
			json.Unmarshal(raw, &a)
			json.Unmarshal(got, &b)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("value changed: %v → %v", a, b)
			}
		}
	})
}

// FuzzAppendCompact holds appendCompact to json.Compact: the same bytes
// for what both accept, and nothing accepted that json.Compact refuses.
func FuzzAppendCompact(f *testing.F) {
	f.Add([]byte(" { \"a\" : [1, 2.5e3 , \"x y\\\" \\n\" ,null,true] ,\n\"b\":{ } }\r\n"))
	f.Add([]byte(`"\u00e9 \\"`))
	f.Add([]byte("[1, 2] [3]"))
	f.Add([]byte(strings.Repeat("[", 1500) + strings.Repeat("]", 1500)))
	f.Add([]byte("{\"k\":\"\xff\x80 raw\"}"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var want bytes.Buffer
		wantErr := json.Compact(&want, raw)
		got, ok := appendCompact([]byte("prefix"), raw)
		if ok != (wantErr == nil) {
			t.Fatalf("appendCompact(%q) ok=%v, json.Compact: %v", raw, ok, wantErr)
		}
		if !ok {
			if string(got) != "prefix" {
				t.Fatalf("refused %q but appended %q", raw, got)
			}
			return
		}
		if string(got) != "prefix"+want.String() {
			t.Fatalf("appendCompact(%q) = %q, json.Compact %q", raw, got[len("prefix"):], want.Bytes())
		}
	})
}

// FuzzAppendDecodedJSON holds the form that does not validate
// to the one that does, for every valid input (what a log
// stores), and makes it take anything else without a panic.
func FuzzAppendDecodedJSON(f *testing.F) {
	f.Add([]byte(" { \"id\" : \"a\", \"kind\":\"MessageEvent\",\n\"t\" : \"x\u009b\u202e\u2028\xff <&>\" }\r\n"))
	f.Add([]byte(`{"kind":"ObservationEvent","observation":{"content":[{"text":"a\"b\\"}]}}`))
	f.Add([]byte(`{"a":"unterminated`))
	f.Add([]byte("  "))
	addFixtureEvents(f)
	var scratch bytes.Buffer
	f.Fuzz(func(t *testing.T, raw []byte) {
		got := AppendDecodedJSON([]byte("prefix"), &scratch, raw)
		if !json.Valid(raw) {
			return
		}
		want, ok := AppendJSON([]byte("prefix"), &scratch, raw)
		if !ok {
			t.Fatalf("%q is valid, AppendJSON refused it", raw)
		}
		if string(got) != string(want) {
			t.Fatalf("%q:\ngot  %q\nwant %q", raw, got, want)
		}
	})
}

// addFixtureEvents seeds f with the first 20 events of the sdk and
// situations fixtures: real events, whitespace and all.
func addFixtureEvents(f *testing.F) {
	for _, name := range []string{"sdk", "situations"} {
		paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", name, "events", "*.json"))
		for _, p := range paths[:min(len(paths), 20)] {
			if raw, err := os.ReadFile(p); err == nil {
				f.Add(raw)
			}
		}
	}
}
