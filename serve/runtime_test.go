package serve

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestParseDockerFaults reads the faults that play a Docker-runtime
// agent-server: its closes, its 501s and its runtime route.
func TestParseDockerFaults(t *testing.T) {
	var f Faults
	for _, spec := range []string{"close=1008:2", "close=1011", "docker", "runtime=missing:resume"} {
		if err := ParseFault(spec, &f); err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
	}
	want := Faults{CloseUnknown: 2, CloseRuntime: 1, Docker: true, Runtime: "missing", RuntimeCanResume: true}
	if f.String() != want.String() || f.String() != "close=1008:2 close=1011:1 docker runtime=missing:resume" {
		t.Errorf("%s, want %s", f, want)
	}
	for _, bad := range []string{"runtime=gone", "runtime=", "runtime=error:maybe", "docker=1", "close=1009"} {
		if err := ParseFault(bad, &Faults{}); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// TestDockerRoutes: as upstream's docker_runtime/routers.py (commit
// 0140f789) answers, fork, switch_llm, switch_profile and
// credential-bindings are 501 with its detail, and the runtime route gives
// ConversationRuntimeInfo (models.py, PR #4966) field for field; a server
// that plays none of it has no runtime route (404).
func TestDockerRoutes(t *testing.T) {
	s := New(Options{Inject: Faults{Docker: true}})
	id := "0123456789abcdef0123456789abcdef"
	s.Add(id, nil, nil)
	url, err := s.Start(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, route := range []string{"fork", "switch_llm", "switch_profile", "credential-bindings"} {
		resp, err := http.Post(url+"/api/conversations/"+id+"/"+route, "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		var body map[string]string
		_ = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotImplemented || body["detail"] != dockerUnavailable {
			t.Errorf("%s: %d %v, want 501 %q", route, resp.StatusCode, body, dockerUnavailable)
		}
	}
	get := func() (int, map[string]any) {
		resp, err := http.Get(url + "/api/conversations/" + id + "/runtime")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		return resp.StatusCode, m
	}
	if code, m := get(); code != 200 || m["runtime_status"] != "available" || m["can_resume"] != true || m["runtime_error"] != nil || len(m) != 3 {
		t.Errorf("runtime: %d %v", code, m)
	}
	s.SetFaults(Faults{Runtime: "error"})
	if code, m := get(); code != 200 || m["runtime_status"] != "error" || m["can_resume"] != false || m["runtime_error"] == nil {
		t.Errorf("runtime error: %d %v", code, m)
	}
	s.SetFaults(Faults{})
	if code, _ := get(); code != 404 {
		t.Errorf("runtime route on a server without runtimes: %d, want 404", code)
	}
}
