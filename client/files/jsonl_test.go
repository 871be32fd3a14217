package files

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ohwatch/internal/fixtures"
)

// TestJSONLRoundTrip writes every real trajectory as JSONL and reads it
// back: the same bytes, in order.
func TestJSONLRoundTrip(t *testing.T) {
	for _, dir := range fixtures.Recordings(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			conv := mustLoad(t, dir)
			path := filepath.Join(t.TempDir(), "conv.jsonl")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := WriteJSONL(f, conv.Events); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			back := mustLoad(t, path)
			if len(back.Warnings) != 0 {
				t.Errorf("warnings: %q", back.Warnings)
			}
			sameRaws(t, rawsOf(back.Events), rawsOf(conv.Events))
		})
	}
}

// TestJSONLCompactsMultiLineEvents writes a pretty-printed event on one
// line.
func TestJSONLCompactsMultiLineEvents(t *testing.T) {
	pretty := []byte("{\n  \"kind\": \"MessageEvent\",\n  \"id\": \"" + eventID(1) + "\"\n}")
	dir := writeConversation(t, [][]byte{pretty}, []string{eventID(1)})
	conv := mustLoad(t, dir)
	var buf bytes.Buffer
	if err := WriteJSONL(&buf, conv.Events); err != nil {
		t.Fatal(err)
	}
	want := `{"kind":"MessageEvent","id":"` + eventID(1) + "\"}\n"
	if buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}

// TestJSONLBadLines reads past blank lines, CRLF endings, bad lines and a
// last line without a newline; each bad line is a warning with its number.
func TestJSONLBadLines(t *testing.T) {
	lines := []string{
		string(messageEvent(eventID(1), "one")),
		"",
		"   ",
		string(messageEvent(eventID(2), "two")) + "\r",
		`{"kind":"MessageEvent", truncated`,
		"[1,2,3]",
		"\x00\x01binary",
		string(messageEvent(eventID(3), "three")),
	}
	path := filepath.Join(t.TempDir(), "bad.jsonl")
	mustWrite(t, path, []byte(strings.Join(lines, "\n")))
	conv := mustLoad(t, path)
	if conv.ID != "" || conv.Title != "one" {
		t.Errorf("id %q title %q: want no id, the first user message as title", conv.ID, conv.Title)
	}
	if len(conv.Events) != 3 {
		t.Fatalf("%d events, want 3; warnings %q", len(conv.Events), conv.Warnings)
	}
	for i, ev := range conv.Events {
		if ev.ID != eventID(i+1) {
			t.Errorf("event %d: id %s", i, ev.ID)
		}
	}
	if len(conv.Warnings) != 3 {
		t.Errorf("warnings %q, want 3", conv.Warnings)
	}
	hasWarning(t, conv.Warnings, "bad.jsonl:5: invalid JSON at offset 24")
	hasWarning(t, conv.Warnings, "bad.jsonl:6: JSON is not an object (an array)")
	hasWarning(t, conv.Warnings, "bad.jsonl:7: invalid JSON at offset 0")
}

// TestJSONLLongLines reads lines far longer than a read segment, between
// short ones, with line numbers still right afterwards.
func TestJSONLLongLines(t *testing.T) {
	long := messageEvent(eventID(2), strings.Repeat("x", maxSegment+17))
	var buf bytes.Buffer
	buf.Write(messageEvent(eventID(1), "short"))
	buf.WriteByte('\n')
	buf.Write(long)
	buf.WriteByte('\n')
	buf.WriteString("not json\n")
	buf.Write(messageEvent(eventID(3), "after"))
	buf.WriteByte('\n')
	path := filepath.Join(t.TempDir(), "long.jsonl")
	mustWrite(t, path, buf.Bytes())
	conv := mustLoad(t, path)
	if len(conv.Events) != 3 || !bytes.Equal(conv.Events[1].Raw, long) {
		t.Fatalf("%d events; long line intact: %v", len(conv.Events), len(conv.Events) > 1 && bytes.Equal(conv.Events[1].Raw, long))
	}
	hasWarning(t, conv.Warnings, "long.jsonl:3: invalid JSON")
	if cap(conv.Events[0].Raw) != len(conv.Events[0].Raw) {
		t.Errorf("Raw's capacity reaches into the next line")
	}
}

// TestJSONLManySegments streams a file of many segments in order, with
// byte progress reaching the file size.
func TestJSONLManySegments(t *testing.T) {
	var buf bytes.Buffer
	var want [][]byte
	for i := 0; buf.Len() < maxSegment+firstSegment; i++ {
		raw := messageEvent(eventID(i), strings.Repeat("y", i%5000))
		want = append(want, raw)
		buf.Write(raw)
		buf.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "0F3C9A2E-8B7D-4C1A-9E6F-5D4C3B2A1908.jsonl")
	mustWrite(t, path, buf.Bytes())
	var got [][]byte
	var last Chunk
	conv, err := Stream(t.Context(), path, func(c Chunk) {
		got = append(got, rawsOf(c.Events)...)
		last = c
	})
	if err != nil {
		t.Fatal(err)
	}
	sameRaws(t, got, want)
	if last.Done != int64(buf.Len()) || last.Total != int64(buf.Len()) {
		t.Errorf("progress %d/%d bytes, want %d", last.Done, last.Total, buf.Len())
	}
	if len(conv.Warnings) != 0 {
		t.Errorf("warnings: %q", conv.Warnings)
	}
	if conv.ID != "0f3c9a2e8b7d4c1a9e6f5d4c3b2a1908" {
		t.Errorf("id %q: not taken from the file name", conv.ID)
	}
}
