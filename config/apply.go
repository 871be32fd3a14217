package config

import (
	"fmt"

	"ohwatch/theme"
)

// ApplyEnv lays the environment over the file: OHWATCH_THEME. A wrong
// value is an error naming the variable.
func (c *Config) ApplyEnv(getenv func(string) string) error {
	if s := getenv("OHWATCH_THEME"); s != "" {
		m, err := theme.ParseMode(s)
		if err != nil {
			return fmt.Errorf("OHWATCH_THEME: %w", err)
		}
		c.Theme.Set(m, Origin{Kind: Env, Name: "OHWATCH_THEME"})
	}
	return nil
}
