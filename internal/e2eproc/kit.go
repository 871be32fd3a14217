package e2eproc

import (
	"fmt"
	"os"
	"path/filepath"

	"ohwatch/internal/modroot"
)

// FindKit finds the module's root (the directory of go.mod, up from the
// working directory) and the kit ../shared/name beside it, which holds
// marker; what names what the kit runs ("real app server"). With ok false
// the suite ends at once with code, having said why in one line: a bare
// clone has no kit and skips the suite (0), unless
// OHWATCH_UPSTREAM_REQUIRED=1 (CI) makes it required (1).
func FindKit(suite, name, marker, what string) (root, kit string, code int, ok bool) {
	root, err := modroot.Find()
	if err != nil {
		fmt.Fprintln(os.Stderr, suite+":", err)
		return "", "", 1, false
	}
	kit = filepath.Join(filepath.Dir(root), "shared", name)
	if _, err := os.Stat(filepath.Join(kit, marker)); err != nil {
		if os.Getenv("OHWATCH_UPSTREAM_REQUIRED") == "1" {
			fmt.Fprintf(os.Stderr, "../shared/%s not found: OHWATCH_UPSTREAM_REQUIRED=1 needs the %s\n", name, what)
			return "", "", 1, false
		}
		fmt.Printf("../shared/%s not found: %s tests skipped\n", name, what)
		return "", "", 0, false
	}
	return root, kit, 0, true
}
