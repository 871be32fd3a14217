package config

import (
	"encoding/json"
	"slices"
	"strings"

	"ohwatch/fleet"
	"ohwatch/guard"
)

// Schema is config.yaml's JSON Schema (draft 2020-12), for editors:
// every setting Load accepts, with its values, built from the same
// tables Load reads (the columns, the key maps' actions), so that a test
// holds the two together and docs/config.schema.json is regenerated from
// it. config knows no screen's actions: screens hands them in, as Write
// takes them (session.KeyDefaults).
func Schema(screens ...ScreenKeys) []byte {
	d := Defaults()
	var columns []string
	for _, c := range fleet.Columns() {
		columns = append(columns, strings.ToLower(c.Name()))
	}
	for w := range columnWords {
		columns = append(columns, w)
	}
	slices.Sort(columns)
	keyList := map[string]any{
		"description": "the keys that do the action: one key or a list (ctrl+d, pgdown, ?)",
		"oneOf":       []any{map[string]any{"type": "string"}, map[string]any{"type": "array", "items": map[string]any{"type": "string"}}},
	}
	actions := func(screen, what string) map[string]any {
		props := map[string]any{}
		for _, sk := range screens {
			if sk.Screen != screen {
				continue
			}
			for _, b := range sk.Bindings {
				props[b.Action] = map[string]any{"$ref": "#/$defs/keys", "default": b.Keys}
			}
		}
		return map[string]any{"type": "object", "description": what, "properties": props, "additionalProperties": false}
	}
	stringList := func(desc string, items map[string]any) map[string]any {
		return map[string]any{"description": desc, "oneOf": []any{items, map[string]any{"type": "array", "items": items}}}
	}
	schema := map[string]any{
		"$schema":     "https://json-schema.org/draft/2020-12/schema",
		"title":       "ohwatch config.yaml",
		"description": "ohwatch's settings ($XDG_CONFIG_HOME/ohwatch/config.yaml, else ~/.config/ohwatch/config.yaml). A flag wins over the environment, the environment over this file; 'ohwatch config' prints what is in effect and where each value came from.",
		"type":        "object",
		"$defs":       map[string]any{"keys": keyList},
		"properties": map[string]any{
			"theme":         map[string]any{"description": "colours for a dark or light background; auto asks the terminal (OHWATCH_THEME and --theme win)", "enum": []string{"auto", "dark", "light"}, "default": "auto"},
			"notifications": map[string]any{"description": "the bell and a desktop notification when the agent needs you (--no-notify turns them off)", "type": "boolean", "default": true},
			"guards":        stringList("rules used when no --guard is given: "+guard.Usage, map[string]any{"type": "string"}),
			"fleet": map[string]any{
				"type":                 "object",
				"description":          "the fleet table",
				"additionalProperties": false,
				"properties": map[string]any{
					"sources": stringList("the sources when none is given: conversations roots (~ expands), agent-server URLs, cloud", map[string]any{"type": "string"}),
					"columns": stringList("the columns after the title, in order", map[string]any{"enum": columns}),
					"sort":    map[string]any{"description": "the column the table is first sorted by", "enum": columns, "default": strings.ToLower(d.Sort.Value.Name())},
					"reverse": map[string]any{"description": "sort descending", "type": "boolean", "default": false},
					"group":   map[string]any{"description": "group the rows that need no attention by source", "enum": []string{GroupNone, GroupSource}, "default": GroupNone},
				},
			},
			"keys": map[string]any{
				"type":                 "object",
				"description":          "keys rebound by action (a key another action answers is refused)",
				"additionalProperties": false,
				"properties": map[string]any{
					"monitor": actions("monitor", "the conversation view's actions"),
					"fleet":   actions("fleet", "the fleet table's actions"),
				},
			},
		},
		"additionalProperties": false,
	}
	out, err := json.MarshalIndent(schema, "", "  ")
	if err != nil {
		panic(err) // maps of strings, lists and booleans always encode
	}
	return append(out, '\n')
}
