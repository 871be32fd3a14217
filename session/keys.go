package session

import (
	"errors"

	"ohwatch/config"
	"ohwatch/tui"
)

// KeyMaps are the TUI's key bindings with the configuration file's over
// them (a nil Config: the defaults). The TUI owns the actions, so it
// checks the file's: an unknown action or a clash is a *config.Error at
// the action's line, which the CLI reports as it loads the file.
func KeyMaps(c *config.Config) (tui.KeyMap, tui.FleetKeyMap, error) {
	km, fkm := tui.DefaultKeyMap(), tui.DefaultFleetKeyMap()
	if err := keyError(c, "monitor", km.Rebind(c.Rebound("monitor"))); err != nil {
		return tui.DefaultKeyMap(), fkm, err
	}
	if err := keyError(c, "fleet", fkm.Rebind(c.Rebound("fleet"))); err != nil {
		return km, tui.DefaultFleetKeyMap(), err
	}
	return km, fkm, nil
}

// keyError names a refused rebinding's line.
func keyError(c *config.Config, screen string, err error) error {
	var ke *tui.KeyError
	if errors.As(err, &ke) {
		return c.KeyError(screen, ke.Action, ke.Err)
	}
	return err
}

// KeyDefaults are the screens' default bindings, for `ohwatch config` to
// list with the file's over them.
func KeyDefaults() []config.ScreenKeys {
	km, fkm := tui.DefaultKeyMap(), tui.DefaultFleetKeyMap()
	return []config.ScreenKeys{
		{Screen: "monitor", Bindings: bindings(km.Actions(), km.Binding)},
		{Screen: "fleet", Bindings: bindings(fkm.Actions(), fkm.Binding)},
	}
}

func bindings(actions []string, keysOf func(string) []string) []config.Binding {
	out := make([]config.Binding, len(actions))
	for i, a := range actions {
		out[i] = config.Binding{Action: a, Keys: keysOf(a)}
	}
	return out
}

// keyMap is the conversation view's bindings. The file's were checked
// as it was loaded (cli's loadConfig): a refused one leaves the defaults.
func keyMap(c *config.Config) tui.KeyMap {
	km, _, _ := KeyMaps(c)
	return km
}

// fleetKeyMap is the fleet table's bindings, as keyMap.
func fleetKeyMap(c *config.Config) tui.FleetKeyMap {
	_, fkm, _ := KeyMaps(c)
	return fkm
}
