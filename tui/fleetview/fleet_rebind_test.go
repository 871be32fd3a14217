package fleetview

import (
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"ohwatch/fleet"
	"ohwatch/tui"
)

// TestFleetColumnsAndOrder: the configured columns are the only ones
// drawn, and the configured order is the table's first.
func TestFleetColumnsAndOrder(t *testing.T) {
	t.Parallel()
	f := newFleetScreen(t, 200, 30, FleetOptions{Columns: []fleet.Column{fleet.ColStatus, fleet.ColCost},
		Order: &fleet.Query{Sort: fleet.ColCost, Desc: true, BySource: true}})
	head := f.columnNames(f.columns(), 20)
	if !strings.Contains(head, "STATUS") || !strings.Contains(head, "COST") || strings.Contains(head, "IDLE") || strings.Contains(head, "TOKENS") {
		t.Errorf("columns: %q", head)
	}
	if f.query.Sort != fleet.ColCost || !f.query.Desc || !f.query.BySource {
		t.Errorf("order: %+v", f.query)
	}
}

// TestRebindFleetKey: the fleet's group on b groups with b.
func TestRebindFleetKey(t *testing.T) {
	t.Parallel()
	km := tui.DefaultFleetKeyMap()
	if err := km.Rebind(map[string][]string{"group": {"b"}}); err != nil {
		t.Fatal(err)
	}
	f := newFleetScreen(t, 120, 30, FleetOptions{KeyMap: km})
	pressFleet(f, "v")
	if f.query.BySource {
		t.Fatal("v still groups")
	}
	pressFleet(f, "b")
	if !f.query.BySource {
		t.Fatal("b does not group")
	}
	if !slices.ContainsFunc(f.keys.FullHelp()[1], func(b key.Binding) bool { return b.Help().Key == "b" && b.Help().Desc == "view grouped by source" }) {
		t.Error("the fleet's help does not show b for grouping")
	}
}
