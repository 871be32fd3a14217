package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/model"
)

// TestRecordReadsBackIdentically loads each real trajectory, records it,
// and loads the recording: same bytes, same ids, same order, and file
// names in the SDK's pattern.
func TestRecordReadsBackIdentically(t *testing.T) {
	for _, dir := range fixtures.Recordings(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			conv := mustLoad(t, dir)
			out := filepath.Join(t.TempDir(), "rec")
			rec, err := NewRecorder(out)
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range conv.Events {
				if err := rec.Record(ev); err != nil {
					t.Fatal(err)
				}
			}
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}
			back := mustLoad(t, out)
			sameRaws(t, rawsOf(back.Events), rawsOf(conv.Events))
			for i := range conv.Events {
				if back.Events[i].ID != conv.Events[i].ID {
					t.Errorf("event %d: id %q, want %q", i, back.Events[i].ID, conv.Events[i].ID)
				}
			}
			if len(back.Warnings) != 0 {
				t.Errorf("warnings: %q", back.Warnings)
			}
			names, _ := readNames(filepath.Join(out, "events"))
			for _, n := range names {
				if _, ok := parseSDKName(n); !ok {
					t.Errorf("stray file %q in the recording", n)
				}
			}
		})
	}
}

// TestRecorderContinuesAndSkips reopens a recording and appends after its
// last index, skipping events it already holds and the live-only kinds.
func TestRecorderContinuesAndSkips(t *testing.T) {
	dir := t.TempDir()
	decode := func(raw []byte) model.Event {
		ev, err := model.Decode(raw)
		if err != nil {
			t.Fatal(err)
		}
		return ev
	}
	rec, err := NewRecorder(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := rec.Record(decode(messageEvent(eventID(i), "m"))); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if err := rec.Record(decode(messageEvent(eventID(9), "late"))); err == nil {
		t.Error("Record after Close succeeded")
	}

	rec, err = NewRecorder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Len() != 3 {
		t.Fatalf("reopened recorder continues at %d, want 3", rec.Len())
	}
	liveOnly := []string{
		`{"kind":"ConversationStateUpdateEvent","id":"` + eventID(20) + `","source":"environment","key":"full_state","value":{"execution_status":"running"}}`,
		`{"kind":"StreamingDeltaEvent","id":"` + eventID(21) + `","source":"agent","content":"tok"}`,
		`{"kind":"ServerErrorEvent","id":"` + eventID(22) + `","source":"environment","code":"ValidationError","detail":"bad"}`,
	}
	for _, raw := range liveOnly {
		if err := rec.Record(decode([]byte(raw))); err != nil {
			t.Fatal(err)
		}
	}
	// A replayed event already in the recording, then a new one.
	if err := rec.Record(decode(messageEvent(eventID(1), "m"))); err != nil {
		t.Fatal(err)
	}
	perField := []byte(`{"kind":"ConversationStateUpdateEvent","id":"` + eventID(3) + `","source":"environment","key":"execution_status","value":"finished"}`)
	if err := rec.Record(decode(perField)); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	conv := mustLoad(t, dir)
	if len(conv.Events) != 4 || conv.Events[3].ID != eventID(3) {
		t.Fatalf("%d events (want 4, the last the per-field update)", len(conv.Events))
	}
	if _, err := os.Stat(filepath.Join(dir, "events", "event-00003-"+eventID(3)+".json")); err != nil {
		t.Errorf("the new event is not at index 3: %v", err)
	}
}

// TestRecorderFileNames gives a file name the SDK accepts even to an event
// whose id is not hex (or is hostile): its JSON keeps the id.
func TestRecorderFileNames(t *testing.T) {
	dir := t.TempDir()
	rec, err := NewRecorder(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"../../escape", "", "abc-summary"} {
		ev, err := model.Decode(messageEvent(id, "odd id"))
		if err != nil {
			t.Fatal(err)
		}
		if err := rec.Record(ev); err != nil {
			t.Fatal(err)
		}
	}
	rec.Close()
	names, _ := readNames(filepath.Join(dir, "events"))
	if len(names) != 3 {
		t.Fatalf("files %q", names)
	}
	for _, n := range names {
		if _, ok := parseSDKName(n); !ok || strings.Contains(n, "..") {
			t.Errorf("file name %q is not an SDK event name", n)
		}
	}
	conv := mustLoad(t, dir)
	if len(conv.Events) != 3 || conv.Events[0].ID != "../../escape" {
		t.Errorf("read back %d events, first id %q", len(conv.Events), conv.Events[0].ID)
	}
}

// TestRecorderWriteBaseState replaces base_state.json atomically and
// refuses what is not a JSON object.
func TestRecorderWriteBaseState(t *testing.T) {
	dir := t.TempDir()
	rec, err := NewRecorder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	for _, status := range []string{"running", "finished"} {
		if err := rec.WriteBaseState([]byte(`{"id":"6a1b5c1e-9a4b-4e6f-8a5d-0f0e0d0c0b0a","execution_status":"` + status + `"}`)); err != nil {
			t.Fatal(err)
		}
	}
	for _, bad := range []string{"", "[]", `{"id":`} {
		if err := rec.WriteBaseState([]byte(bad)); err == nil {
			t.Errorf("WriteBaseState(%q) succeeded", bad)
		}
	}
	conv := mustLoad(t, dir)
	if conv.Base == nil || conv.Base.ExecutionStatus != "finished" {
		t.Fatalf("base %+v, warnings %q", conv.Base, conv.Warnings)
	}
	names, _ := readNames(dir)
	for _, n := range names {
		if strings.HasSuffix(n, ".tmp") {
			t.Errorf("temporary file %q left behind", n)
		}
	}
}
