package fleetsource

import (
	"reflect"
	"testing"

	"ohwatch/model"
)

// TestSplitSources keeps each side's order and hands a slice without
// source updates back as it is.
func TestSplitSources(t *testing.T) {
	conv := func(id string) model.FleetUpdate {
		return model.FleetUpdate{Ref: model.ConversationRef{Source: "s", ID: id}}
	}
	src := model.FleetUpdate{Ref: model.ConversationRef{Source: "s"}}
	all := []model.FleetUpdate{conv("a"), conv("b")}
	if c, s := SplitSources(all); &c[0] != &all[0] || s != nil {
		t.Errorf("a slice of conversations only was copied or split: %v %v", c, s)
	}
	c, s := SplitSources([]model.FleetUpdate{conv("a"), src, conv("b"), src})
	if !reflect.DeepEqual(c, []model.FleetUpdate{conv("a"), conv("b")}) || len(s) != 2 {
		t.Errorf("split into %v and %v", c, s)
	}
}
