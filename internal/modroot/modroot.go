// Package modroot finds the module's root, the directory holding go.mod,
// from wherever a test or a tool runs (a package's tests run in its
// directory): the fixtures, the recordings beside the checkout and the
// real servers' kits are all found from it.
package modroot

import (
	"fmt"
	"os"
	"path/filepath"
)

// From walks up from dir to the directory holding go.mod.
func From(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
	}
}

// Find walks up from the working directory to the directory holding
// go.mod.
func Find() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return From(wd)
}
