package session

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSessionKeyPrecedence(t *testing.T) {
	file := filepath.Join(t.TempDir(), "key")
	os.WriteFile(file, []byte("  from-file\n"), 0o600)
	env := func(k string) string {
		if k == "SESSION_API_KEY" {
			return "from-env"
		}
		return ""
	}
	noEnv := func(string) string { return "" }
	tests := []struct {
		name, file, flag string
		getenv           func(string) string
		want             string
		warns            bool
	}{
		{"file wins", file, "from-flag", env, "from-file", false},
		{"a typed flag wins over the environment, with a warning", "", " from-flag ", env, "from-flag", true},
		{"environment", "", "", env, "from-env", false},
		{"none", "", "", noEnv, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			got, err := Key(tt.file, tt.flag, tt.getenv, &stderr)
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
			if warned := strings.Contains(stderr.String(), "visible to other users"); warned != tt.warns {
				t.Errorf("warning printed = %v, want %v", warned, tt.warns)
			}
			if strings.Contains(stderr.String(), tt.want) && tt.want != "" {
				t.Error("the key was printed")
			}
		})
	}
	if _, err := Key(filepath.Join(t.TempDir(), "missing"), "", noEnv, &bytes.Buffer{}); err == nil {
		t.Error("a missing key file is not an error")
	}
}
