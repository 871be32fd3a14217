package cli

import (
	"fmt"

	"ohwatch/config"
	"ohwatch/theme"
)

// themeFlag is --theme: dark, light or auto. It is parsed as the flag is
// read, so a wrong value is a usage error (exit 2) like any bad flag.
type themeFlag struct {
	mode theme.Mode
	set  bool
}

// String implements flag.Value.
func (f *themeFlag) String() string { return f.mode.String() }

// Set implements flag.Value.
func (f *themeFlag) Set(s string) error {
	m, err := theme.ParseMode(s)
	if err != nil {
		return err
	}
	f.mode, f.set = m, true
	return nil
}

// themeUsage is the help text of --theme.
const themeUsage = "colours for a `dark|light|auto` background (auto asks the terminal, dark when it does not answer; $OHWATCH_THEME, else config.yaml's theme, when not given)"

// resolve returns the theme: the flag when given, else OHWATCH_THEME, else
// the configuration file's, else auto. A wrong OHWATCH_THEME is an error
// naming the variable.
func (f themeFlag) resolve(getenv func(string) string, cfg *config.Config) (theme.Mode, error) {
	if f.set {
		return f.mode, nil
	}
	m, err := theme.ParseMode(getenv("OHWATCH_THEME"))
	if err != nil {
		return theme.Auto, fmt.Errorf("OHWATCH_THEME: %w", err)
	}
	if getenv("OHWATCH_THEME") == "" && cfg != nil {
		return cfg.Theme.Value, nil
	}
	return m, nil
}

// Type implements pflag.Value.
func (f *themeFlag) Type() string { return "theme" }
