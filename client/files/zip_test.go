package files

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ohwatch/internal/fixtures"
)

// writeZip zips files (name → bytes) into a new archive and returns its
// path.
func writeZip(t testing.TB, name string, files map[string][]byte, order []string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, n := range order {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(files[n]); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLoadTrajectoryZip reads the conversation directory zipped under a
// prefix, as /api/file/download-trajectory serves it, and at the root.
func TestLoadTrajectoryZip(t *testing.T) {
	raws, ids := realEvents(t, "creating_agent_plan")
	base, err := os.ReadFile(fixtures.Path(t, fixtures.BaseStateV1115))
	if err != nil {
		t.Fatal(err)
	}
	for _, prefix := range []string{"", "0f3c9a2e8b7d4c1a9e6f5d4c3b2a1908/", "workspace/conversations/0f3c9a2e8b7d4c1a9e6f5d4c3b2a1908/"} {
		t.Run("prefix="+prefix, func(t *testing.T) {
			files := map[string][]byte{prefix + "base_state.json": base, prefix + "events/.eventlog.lock": nil, prefix + "TASKS.json": []byte("[]")}
			order := []string{prefix + "events/.eventlog.lock", prefix + "TASKS.json"}
			// Zip entries in reverse order: the index decides, not the archive.
			for i := len(raws) - 1; i >= 0; i-- {
				n := prefix + "events/event-0000" + string(rune('0'+i)) + "-" + ids[i] + ".json"
				files[n] = raws[i]
				order = append(order, n)
			}
			order = append(order, prefix+"base_state.json")
			// A decoy events/ deeper down must not be taken instead.
			files[prefix+"observations/events/event-00000-"+ids[0]+".json"] = []byte("{}")
			order = append(order, prefix+"observations/events/event-00000-"+ids[0]+".json")
			path := writeZip(t, "trajectory.zip", files, order)
			conv := mustLoad(t, path)
			sameRaws(t, rawsOf(conv.Events), raws)
			if conv.Base == nil || len(conv.ID) != 32 {
				t.Errorf("base %v, id %q", conv.Base, conv.ID)
			}
			if len(conv.Warnings) != 0 {
				t.Errorf("warnings %q", conv.Warnings)
			}
		})
	}
}

// TestLoadZipWithoutConversation and a corrupt zip are clear errors.
func TestLoadZipWithoutConversation(t *testing.T) {
	path := writeZip(t, "other.zip", map[string][]byte{"README.md": []byte("hi")}, []string{"README.md"})
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "no conversation inside the zip") {
		t.Errorf("err = %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.zip")
	mustWrite(t, bad, []byte("PK\x03\x04 this is not really a zip"))
	if _, err := Load(bad); err == nil || !strings.Contains(err.Error(), "zip") {
		t.Errorf("corrupt zip: err = %v", err)
	}
}
