package cloud

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"ohwatch/internal/upstream"
	"ohwatch/model"
)

// openAPI is the part of the Cloud OpenAPI document these tests read.
type openAPI struct {
	Paths map[string]map[string]struct {
		Parameters []struct {
			Name     string `json:"name"`
			In       string `json:"in"`
			Required bool   `json:"required"`
		} `json:"parameters"`
		RequestBody *struct {
			Content map[string]struct {
				Schema struct {
					Ref string `json:"$ref"`
				} `json:"schema"`
			} `json:"content"`
		} `json:"requestBody"`
	} `json:"paths"`
	Components struct {
		Schemas map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
			Enum       []string                   `json:"enum"`
		} `json:"schemas"`
	} `json:"components"`
}

func loadCloudSchema(t *testing.T) openAPI {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(upstream.Dir(t), "schemas", "openhands-cloud.openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc openAPI
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestRoutesMatchSchema checks every route this package calls against the
// real Cloud schema: the path and method exist and the query parameters
// sent are the ones declared (and every required one is sent).
func TestRoutesMatchSchema(t *testing.T) {
	doc := loadCloudSchema(t)
	routes := []struct {
		method, path string
		query        []string
	}{
		{"post", "/api/v1/sandboxes", []string{"sandbox_spec_id"}},
		{"get", "/api/v1/sandboxes", []string{"id"}},
		{"post", "/api/v1/sandboxes/{sandbox_id}/resume", nil},
		{"delete", "/api/v1/sandboxes/{id}", []string{"sandbox_id"}},
		{"post", "/api/v1/app-conversations", nil},
		{"get", "/api/v1/app-conversations", []string{"ids"}},
		{"get", "/api/v1/app-conversations/start-tasks", []string{"ids"}},
	}
	for _, r := range routes {
		op, ok := doc.Paths[r.path][r.method]
		if !ok {
			t.Errorf("%s %s is not in the schema", r.method, r.path)
			continue
		}
		var declared, required []string
		for _, p := range op.Parameters {
			if p.In == "query" {
				declared = append(declared, p.Name)
				if p.Required {
					required = append(required, p.Name)
				}
			}
		}
		for _, q := range r.query {
			if !slices.Contains(declared, q) {
				t.Errorf("%s %s: query parameter %q is not declared (declared: %v)", r.method, r.path, q, declared)
			}
		}
		for _, q := range required {
			if !slices.Contains(r.query, q) {
				t.Errorf("%s %s: required query parameter %q is not sent", r.method, r.path, q)
			}
		}
	}
	body := doc.Paths["/api/v1/app-conversations"]["post"].RequestBody
	if body == nil || body.Content["application/json"].Schema.Ref != "#/components/schemas/AppConversationStartRequest-Input" {
		t.Errorf("POST /api/v1/app-conversations does not take an AppConversationStartRequest")
	}
}

// TestWireFieldsMatchSchema checks that every JSON field the wire types
// read or write is a property of the schema component it mirrors, and that
// the status constants are members of the schema's enums.
func TestWireFieldsMatchSchema(t *testing.T) {
	doc := loadCloudSchema(t)
	types := map[string]any{
		"SandboxInfo":                       sandboxInfo{},
		"ExposedUrl":                        exposedURL{},
		"AppConversationStartTask":          startTask{},
		"AppConversationStartRequest-Input": startRequest{},
		"SendMessageRequest":                model.UserMessage{},
		"TextContent":                       model.TextContent{},
		"AppConversation":                   appConversation{},
	}
	for component, v := range types {
		props := doc.Components.Schemas[component].Properties
		if len(props) == 0 {
			t.Errorf("component %s is not in the schema", component)
			continue
		}
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			if _, ok := props[name]; !ok {
				t.Errorf("%s.%s (json %q) is not a property of %s", rt.Name(), rt.Field(i).Name, name, component)
			}
		}
	}
	enums := map[string][]string{
		"SandboxStatus":                  {sandboxStarting, sandboxRunning, sandboxPaused, sandboxError, sandboxMissing},
		"AppConversationStartTaskStatus": {taskReady, taskError},
	}
	for component, values := range enums {
		for _, v := range values {
			if !slices.Contains(doc.Components.Schemas[component].Enum, v) {
				t.Errorf("%q is not in the %s enum %v", v, component, doc.Components.Schemas[component].Enum)
			}
		}
	}
}
