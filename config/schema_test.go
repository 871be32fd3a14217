package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestSchemaAgreesWithLoad: every setting, column and action the schema
// names is one Load accepts, and a setting it does not name Load refuses;
// so an editor checking config.yaml against the schema says what ohwatch
// will say.
func TestSchemaAgreesWithLoad(t *testing.T) {
	var s struct {
		Properties map[string]struct {
			Properties map[string]struct {
				Enum       []string                   `json:"enum"`
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"properties"`
		} `json:"properties"`
	}
	// config knows no screen's actions: the caller hands them in
	// (session.KeyDefaults; cli's TestDocsAreCurrent holds the generated
	// file to the real ones).
	screens := []ScreenKeys{
		{Screen: "monitor", Bindings: []Binding{{Action: "quit", Keys: []string{"q"}}, {Action: "help", Keys: []string{"?"}}}},
		{Screen: "fleet", Bindings: []Binding{{Action: "open", Keys: []string{"enter"}}}},
	}
	if err := json.Unmarshal(Schema(screens...), &s); err != nil {
		t.Fatal(err)
	}
	load := func(yaml string) error {
		path := filepath.Join(t.TempDir(), "config.yaml")
		if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		return err
	}
	for _, doc := range []string{"theme: light\n", "notifications: false\n", "guards: ['cost>5:pause', 'idle>10m']\n",
		"fleet:\n  sources: [/tmp]\n  reverse: true\n  group: source\n"} {
		if err := load(doc); err != nil {
			t.Errorf("%q: %v", doc, err)
		}
	}
	if len(s.Properties) != 5 {
		t.Errorf("the schema has %d settings, want 5", len(s.Properties))
	}
	for _, col := range s.Properties["fleet"].Properties["sort"].Enum {
		if err := load("fleet:\n  sort: " + col + "\n  columns: [" + col + "]\n"); err != nil {
			t.Errorf("column %s: %v", col, err)
		}
	}
	for _, sk := range screens {
		p := s.Properties["keys"].Properties[sk.Screen]
		if len(p.Properties) != len(sk.Bindings) {
			t.Errorf("keys.%s has %d actions, want %d", sk.Screen, len(p.Properties), len(sk.Bindings))
		}
		for _, b := range sk.Bindings {
			if _, ok := p.Properties[b.Action]; !ok {
				t.Errorf("keys.%s lacks %s", sk.Screen, b.Action)
			}
			// An action given its own default keys is always accepted.
			keys, _ := json.Marshal(b.Keys)
			if err := load("keys:\n  " + sk.Screen + ":\n    " + b.Action + ": " + string(keys) + "\n"); err != nil {
				t.Errorf("keys.%s.%s: %v", sk.Screen, b.Action, err)
			}
		}
	}
	for _, doc := range []string{"colour: dark\n", "fleet:\n  rows: 3\n", "keys:\n  compare:\n    quit: q\n"} {
		if load(doc) == nil {
			t.Errorf("%q loads, but the schema forbids it", doc)
		}
	}
}
