package model_test

import (
	"reflect"
	"testing"
	"time"

	"ohwatch/gen"
	"ohwatch/model"
)

// TestRedecodeGivesWhatDecodeGave checks the trusted decoder against the
// validating one on every kind and shape the generator writes (FuzzDecode
// does the same on recorded and hostile events).
func TestRedecodeGivesWhatDecodeGave(t *testing.T) {
	n := 0
	for raw := range gen.Events(gen.Options{Events: 5000, Seed: 3, Branches: 3}) {
		want, err := model.Decode(raw)
		if err != nil {
			t.Fatal(err)
		}
		got, err := model.Redecode(raw)
		if err != nil {
			t.Fatal(err)
		}
		want.Time = time.Time{}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("event %d: Redecode gives %+v, Decode %+v", n, got, want)
		}
		n++
	}
	if n != 5000 {
		t.Fatalf("%d events", n)
	}
}
