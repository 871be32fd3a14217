//go:build !linux

package realserver

import "syscall"

// serverProcAttr puts a server in its own process group, so that stopping
// it stops all it started.
func serverProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
