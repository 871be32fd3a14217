package model

import (
	"fmt"
	"math/rand/v2"
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

// packUUIDByTable is packUUID digit by digit, as it was written first:
// the reference the word-at-a-time reading is checked against.
func packUUIDByTable(s string) (hi, lo uint64, ok bool) {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return 0, 0, false
	}
	value := func(c byte) (uint64, bool) {
		switch {
		case c >= '0' && c <= '9':
			return uint64(c - '0'), true
		case c >= 'a' && c <= 'f':
			return uint64(c-'a') + 10, true
		}
		return 0, false
	}
	ok = true
	n := 0
	for i := 0; i < 36; i++ {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			continue
		}
		d, good := value(s[i])
		ok = ok && good
		if n < 16 {
			hi = hi<<4 | d
		} else {
			lo = lo<<4 | d
		}
		n++
	}
	return hi, lo, ok
}

// TestPackUUIDReadsEveryDigitAsTheTableDoes puts every byte value at every
// position of a uuid (and of random ones) and compares the word-at-a-time
// reading with the table's.
func TestPackUUIDReadsEveryDigitAsTheTableDoes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ids := []string{"00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff", "0123abcd-4567-89ef-fedc-ba9876543210"}
	for range 200 {
		b := []byte("00000000-0000-0000-0000-000000000000")
		for i := range b {
			if b[i] != '-' {
				b[i] = "0123456789abcdef"[rng.IntN(16)]
			}
		}
		ids = append(ids, string(b))
	}
	for _, id := range ids {
		for pos := range 36 {
			for c := range 256 {
				b := []byte(id)
				b[pos] = byte(c)
				s := string(b)
				hi, lo, ok := packUUID(s)
				whi, wlo, wok := packUUIDByTable(s)
				if ok != wok || ok && (hi != whi || lo != wlo) {
					t.Fatalf("%q: packed %x %x %v, the table says %x %x %v", s, hi, lo, ok, whi, wlo, wok)
				}
			}
		}
	}
}
