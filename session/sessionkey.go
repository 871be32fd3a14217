package session

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Key finds the agent-server session key: --session-key-file, then
// --session-key (which works but is visible to every user of the machine in
// the process list, so it warns), then SESSION_API_KEY (the agent-server's
// own variable). A flag the user typed wins over the environment. The key
// itself is never printed.
func Key(file, flagValue string, getenv func(string) string, stderr io.Writer) (string, error) {
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			// The path is the user's own; the key is not in the error.
			return "", fmt.Errorf("--session-key-file: %w", err)
		}
		key := strings.TrimSpace(string(b))
		if key == "" {
			return "", errors.New("--session-key-file: the file is empty")
		}
		return key, nil
	}
	if key := strings.TrimSpace(flagValue); key != "" {
		fmt.Fprintln(stderr, "ohwatch: warning: --session-key is visible to other users of this machine; prefer SESSION_API_KEY or --session-key-file")
		return key, nil
	}
	if key := strings.TrimSpace(getenv("SESSION_API_KEY")); key != "" {
		return key, nil
	}
	return "", nil
}
