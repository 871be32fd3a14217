package files

import (
	"context"
	"strconv"
	"testing"
)

// TestFileJobsInOrderAndReleased: the jobs cover every file once, in
// order, none over fileChunk; each chunk is let go once its files are
// handed out.
func TestFileJobsInOrderAndReleased(t *testing.T) {
	files := make([]eventFile, 2*fileChunk+77)
	for i := range files {
		files[i] = eventFile{Name: strconv.Itoa(i), Index: int64(i)}
	}
	chunks := chunkFiles(files)
	var got []string
	read := func(name string, _ *slab) ([]byte, error) {
		got = append(got, name)
		return []byte(`{"kind":"MessageEvent","id":"` + name + `"}`), nil
	}
	for j := range fileJobs(context.Background(), chunks, "events/", read) {
		if j.units > fileChunk {
			t.Fatalf("a job of %d files", j.units)
		}
		j.run(context.Background(), nil)
	}
	if len(got) != len(files) {
		t.Fatalf("%d files read, want %d", len(got), len(files))
	}
	for i, name := range got {
		if name != strconv.Itoa(i) {
			t.Fatalf("file %d read as %q", i, name)
		}
	}
	for k, c := range chunks {
		if c != nil {
			t.Errorf("chunk %d still held", k)
		}
	}
}
