package realserver

import "syscall"

// serverProcAttr puts a server in its own process group, so that stopping
// it stops all it started, and kills it with the test binary (Pdeathsig)
// should the binary die before its cleanups run.
func serverProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
