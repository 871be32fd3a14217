package cloud

import (
	"flag"
	"time"
)

// BindFlags registers the cloud command's flags on fs, writing into cfg.
// Call it after ConfigFromEnv so that the environment provides the defaults
// and the flags, parsed later, override them. The API key flag never prints
// its default, so -h cannot reveal a key taken from the environment.
func BindFlags(fs *flag.FlagSet, cfg *Config) {
	fs.Var((*secretFlag)(&cfg.APIKey), "api-key", "OpenHands Cloud API `KEY` (default $OH_API_KEY; prefer the variable: flags show up in the process list)")
	fs.StringVar(&cfg.BaseURL, "base-url", cfg.BaseURL, "Cloud app server base URL ($OH_API_BASE)")
	fs.StringVar(&cfg.SandboxSpecID, "sandbox-spec-id", cfg.SandboxSpecID, "runtime image spec id; empty lets Cloud choose ($SANDBOX_SPEC_ID)")
	fs.StringVar(&cfg.Message, "message", cfg.Message, "initial user message of the started conversation")
	fs.Var((*secondsFlag)(&cfg.PollTimeout), "poll-timeout", "how long to wait for the sandbox and for the start task, in seconds or as a `duration` ($POLL_TIMEOUT)")
	fs.Var((*secondsFlag)(&cfg.StoreTimeout), "store-timeout", "before deleting the sandbox it started, wait at most this long (seconds or a `duration`) for Cloud to store every event seen live")
	fs.BoolVar(&cfg.Keep, "keep", cfg.Keep, "leave the started sandbox running instead of deleting it")
	fs.StringVar(&cfg.ConversationID, "conversation", cfg.ConversationID, "attach to this existing Cloud conversation instead of starting one")
}

// secretFlag is a string flag whose String is always empty, so flag's usage
// output never shows the value.
type secretFlag string

// String implements flag.Value; it is empty so that no usage text shows a key.
func (s *secretFlag) String() string { return "" }

// Set implements flag.Value.
func (s *secretFlag) Set(v string) error { *s = secretFlag(v); return nil }

// secondsFlag is a duration flag that also takes a bare number of seconds,
// like the upstream example's --poll-timeout.
type secondsFlag time.Duration

// String implements flag.Value.
func (d *secondsFlag) String() string {
	if d == nil || *d == 0 {
		return ""
	}
	return time.Duration(*d).String()
}

// Set implements flag.Value.
func (d *secondsFlag) Set(v string) error {
	parsed, err := parseSeconds(v)
	if err != nil {
		return err
	}
	*d = secondsFlag(parsed)
	return nil
}
