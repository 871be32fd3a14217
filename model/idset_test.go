package model

import (
	"fmt"
	"testing"
)

func TestIDSetPacksOnlyCanonicalUUIDs(t *testing.T) {
	for id, packed := range map[string]bool{
		"0f0e0d0c-0b0a-4908-8706-050403020100":         true,
		"0F0E0D0C-0B0A-4908-8706-050403020100":         false,
		"0f0e0d0c0b0a49088706050403020100":             false,
		"0f0e0d0c-0b0a-4908-8706-05040302010g":         false,
		"0f0e0d0c-0b0a-4908-8706-050403020100-summary": false,
	} {
		if _, _, ok := packUUID(id); ok != packed {
			t.Errorf("%s packed %v", id, ok)
		}
	}
	var s IDSet
	var added []bool
	for _, id := range []string{"0f0e0d0c-0b0a-4908-8706-050403020100", "x", "0f0e0d0c-0b0a-4908-8706-050403020100", "x", "y", "", ""} {
		added = append(added, s.Add(id))
	}
	if s.Len() != 3 {
		t.Fatalf("len %d", s.Len())
	}
	want := []bool{true, true, false, false, true, true, true}
	for i := range want {
		if added[i] != want[i] {
			t.Fatalf("Add results %v, want %v", added, want)
		}
	}
}

// TestIDSetUUIDsKeepTheirBytes: two uuids differing in any one digit are
// two ids.
func TestIDSetUUIDsKeepTheirBytes(t *testing.T) {
	const base = "0f0e0d0c-0b0a-4908-8706-050403020100"
	var s IDSet
	s.Add(base)
	for i := range len(base) {
		if base[i] == '-' {
			continue
		}
		b := []byte(base)
		b[i] = 'f' - (b[i]-'0')%6
		if b[i] == base[i] {
			b[i] = '1'
		}
		if !s.Add(string(b)) {
			t.Fatalf("%s taken for a duplicate", b)
		}
	}
}

// TestIDSetHalvesThatClash: uuids sharing their first half are still told
// apart, and each is still a duplicate of itself.
func TestIDSetHalvesThatClash(t *testing.T) {
	ids := []string{
		"0f0e0d0c-0b0a-4908-8706-050403020100",
		"0f0e0d0c-0b0a-4908-8706-050403020101",
		"0f0e0d0c-0b0a-4908-8706-050403020102",
	}
	var s IDSet
	for _, id := range ids {
		if !s.Add(id) {
			t.Fatalf("%s taken for a duplicate", id)
		}
	}
	for _, id := range ids {
		if s.Add(id) {
			t.Fatalf("%s added twice", id)
		}
	}
	if s.Len() != 3 {
		t.Fatalf("len %d", s.Len())
	}
}

func BenchmarkIDSetAdd(b *testing.B) {
	ids := make([]string, 20000)
	for i := range ids {
		ids[i] = fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", uint32(i*2654435761), i&0xffff, i&0xfff, (i*7)&0xfff, uint64(i)*0x9e3779b97f4a7c15>>16)
		if len(ids[i]) != 36 {
			b.Fatal(ids[i])
		}
	}
	for b.Loop() {
		var s IDSet
		for _, id := range ids {
			s.Add(id)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ids)), "ns/id")
}
