package cloud

import (
	"flag"
	"strings"
	"testing"
	"time"
)

func mapEnv(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestConfigFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    Config
		wantErr string
	}{
		{name: "defaults", env: map[string]string{},
			want: Config{BaseURL: DefaultBaseURL, Message: DefaultMessage, PollTimeout: DefaultPollTimeout}},
		{name: "all set", env: map[string]string{"OH_API_KEY": " k ", "OH_API_BASE": "https://cloud.example", "SANDBOX_SPEC_ID": "spec", "POLL_TIMEOUT": "90"},
			want: Config{APIKey: "k", BaseURL: "https://cloud.example", SandboxSpecID: "spec", Message: DefaultMessage, PollTimeout: 90 * time.Second}},
		{name: "duration timeout", env: map[string]string{"POLL_TIMEOUT": "2m30s"},
			want: Config{BaseURL: DefaultBaseURL, Message: DefaultMessage, PollTimeout: 150 * time.Second}},
		{name: "bad timeout", env: map[string]string{"POLL_TIMEOUT": "soon"}, wantErr: "POLL_TIMEOUT"},
		{name: "negative timeout", env: map[string]string{"POLL_TIMEOUT": "-5"}, wantErr: "POLL_TIMEOUT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ConfigFromEnv(mapEnv(tt.env))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one naming %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.APIKey != tt.want.APIKey || got.BaseURL != tt.want.BaseURL || got.SandboxSpecID != tt.want.SandboxSpecID ||
				got.Message != tt.want.Message || got.PollTimeout != tt.want.PollTimeout || got.PollInterval != DefaultPollInterval {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFlagsOverrideEnv(t *testing.T) {
	cfg, err := ConfigFromEnv(mapEnv(map[string]string{"OH_API_KEY": "from-env", "OH_API_BASE": "https://env.example", "POLL_TIMEOUT": "60"}))
	if err != nil {
		t.Fatal(err)
	}
	fs := flag.NewFlagSet("cloud", flag.ContinueOnError)
	BindFlags(fs, &cfg)
	err = fs.Parse([]string{"--api-key", "from-flag", "--sandbox-spec-id", "spec-2", "--message", "hi",
		"--poll-timeout", "30", "--keep", "--conversation", fakeConvID})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.APIKey != "from-flag" || cfg.BaseURL != "https://env.example" || cfg.SandboxSpecID != "spec-2" || cfg.Message != "hi" ||
		cfg.PollTimeout != 30*time.Second || !cfg.Keep || cfg.ConversationID != fakeConvID {
		t.Errorf("cfg = %v", cfg)
	}
	if err := fs.Parse([]string{"--poll-timeout", "later"}); err == nil {
		t.Error("a bad --poll-timeout was accepted")
	}
}

func TestNewValidatesConfig(t *testing.T) {
	tests := []struct {
		name    string
		cfg     Config
		wantErr string // "" means valid
	}{
		{name: "default base", cfg: Config{APIKey: "k"}},
		{name: "loopback http", cfg: Config{APIKey: "k", BaseURL: "http://127.0.0.1:3000"}},
		{name: "localhost http", cfg: Config{APIKey: "k", BaseURL: "http://localhost:3000/"}},
		{name: "no key", cfg: Config{}, wantErr: "OH_API_KEY"},
		{name: "plain http to the network", cfg: Config{APIKey: "k", BaseURL: "http://cloud.example"}, wantErr: "plain http"},
		{name: "not a URL", cfg: Config{APIKey: "k", BaseURL: "app.all-hands.dev"}, wantErr: "base URL"},
		{name: "credentials in URL", cfg: Config{APIKey: "k", BaseURL: "https://user:pw@cloud.example"}, wantErr: "credentials"},
		{name: "key as the user name", cfg: Config{APIKey: "k", BaseURL: "https://pw@cloud.example"}, wantErr: "credentials"},
		{name: "key in the query", cfg: Config{APIKey: "k", BaseURL: "https://cloud.example/?key=pw"}, wantErr: "query"},
		{name: "unparsable with credentials", cfg: Config{APIKey: "k", BaseURL: "https://user:pw@cloud.example:port"}, wantErr: "not a valid URL"},
		{name: "wrong scheme with credentials", cfg: Config{APIKey: "k", BaseURL: "ftp://pw@cloud.example"}, wantErr: "want https"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.cfg)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("New: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("New error = %v, want one mentioning %q", err, tt.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "pw") {
				t.Errorf("error shows a credential from the URL: %v", err)
			}
		})
	}
}

func TestAgentServerFromConversationURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://abc.prod-runtime.all-hands.dev/api/conversations/" + fakeConvID, "https://abc.prod-runtime.all-hands.dev"},
		{"https://runtime.example/sandbox-7/api/conversations/" + fakeConvID, "https://runtime.example/sandbox-7"},
		{"https://runtime.example/other/path", "https://runtime.example"},
		{"", ""},
		{"::not a url", ""},
	}
	for _, tt := range tests {
		if got := agentServerFromConversationURL(tt.in); got != tt.want {
			t.Errorf("agentServerFromConversationURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCheckAgentServerURL(t *testing.T) {
	s, err := New(Config{APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	good := map[string]string{
		"https://abc.runtime.example":   "https://abc.runtime.example",
		"https://abc.runtime.example/":  "https://abc.runtime.example",
		"http://127.0.0.1:8000/prefix/": "http://127.0.0.1:8000/prefix",
	}
	for in, want := range good {
		if got, err := s.checkAgentServerURL(in); err != nil || got != want {
			t.Errorf("checkAgentServerURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"javascript:alert(1)", "wss://x.example", "https://u:p@x.example", "https://x.example/?session_api_key=s", "/relative"} {
		if _, err := s.checkAgentServerURL(bad); err == nil {
			t.Errorf("checkAgentServerURL(%q) accepted", bad)
		}
	}
}
