package fleetview

import (
	"slices"
	"strings"
	"testing"

	"ohwatch/fleet"
	"ohwatch/tui"
)

// TestFleetColumnsAndOrder: the configured columns are the only ones
// drawn, and the configured order is the table's first.
func TestFleetColumnsAndOrder(t *testing.T) {
	t.Parallel()
	d := drive(t, listedFleet(t, 200, 30, 3, FleetOptions{Columns: []fleet.Column{fleet.ColStatus, fleet.ColCost},
		Order: &fleet.Query{Sort: fleet.ColCost, Desc: true, BySource: true}}), 200, 30)
	if head := d.Row(1); !strings.Contains(head, "STATUS") || !strings.Contains(head, "COST↓") || strings.Contains(head, "IDLE") || strings.Contains(head, "TOKENS") {
		t.Errorf("columns: %q", head)
	}
	d.Shows("sort cost ↓", "─ cloud (3)")
}

// TestRebindFleetKey: the fleet's group on b groups with b.
func TestRebindFleetKey(t *testing.T) {
	t.Parallel()
	km := tui.DefaultFleetKeyMap()
	if err := km.Rebind(map[string][]string{"group": {"b"}}); err != nil {
		t.Fatal(err)
	}
	d := drive(t, listedFleet(t, 120, 30, 3, FleetOptions{KeyMap: km}), 120, 30)
	d.Press("v").Hides("─ cloud")
	d.Press("b").Shows("─ cloud (3)")
	d.Press("?")
	if !slices.ContainsFunc(strings.Split(d.Screen(), "\n"), func(l string) bool {
		return strings.Contains(l, " b ") && strings.Contains(l, "view grouped by source")
	}) {
		t.Errorf("the fleet's help does not show b for grouping:\n%s", d.Screen())
	}
}
