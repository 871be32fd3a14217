package cli

import (
	"bytes"
	"strings"
	"testing"

	"ohwatch/session"

	"ohwatch/theme"
)

func TestThemeFlagAndEnvironment(t *testing.T) {
	cases := []struct {
		flag, env string
		want      theme.Mode
	}{
		{"", "", theme.Auto},
		{"", "light", theme.LightMode},
		{"", " DARK ", theme.DarkMode},
		{"dark", "light", theme.DarkMode},
		{"auto", "light", theme.Auto},
	}
	for _, c := range cases {
		var f themeFlag
		if c.flag != "" {
			if err := f.Set(c.flag); err != nil {
				t.Fatal(err)
			}
		}
		got, err := f.resolve(func(string) string { return c.env }, nil)
		if err != nil || got != c.want {
			t.Errorf("--theme %q, OHWATCH_THEME %q: %v, %v; want %v", c.flag, c.env, got, err, c.want)
		}
	}
}

func TestBadThemeIsExit2(t *testing.T) {
	code, _, errs := runCmd(t, nil, "replay", twin(t, "simple_echo_hello_world"), "--theme", "pink")
	if code != exitUsage || !strings.Contains(errs, "dark, light or auto") {
		t.Errorf("--theme pink: exit %d\n%s", code, errs)
	}
	var out, errb bytes.Buffer
	e := &session.Env{Stdout: &out, Stderr: &errb, IsTerminal: true,
		Getenv: func(k string) string { return map[string]string{"OHWATCH_THEME": "pink"}[k] }}
	if code := run([]string{"replay", twin(t, "simple_echo_hello_world")}, e); code != exitUsage ||
		!strings.Contains(errb.String(), "OHWATCH_THEME") {
		t.Errorf("OHWATCH_THEME=pink: exit %d\n%s", code, errb.String())
	}
}
