// Package cli is ohwatch's command line: one cobra command per file, each
// parsing its flags into plain options (session.Options for the commands
// that show a conversation) and handing them to the packages that do the
// work. The exit codes are the README's table; a usage mistake is one line
// naming it and one line of hint, exit 2.
//
// # In detail
//
// The command line on cobra, one file per command (`demo`, `watch`, `cloud`,
// `replay`, `ls`, `fleet`, `state`, `export`, `serve`, `gen`, `compare`,
// `config`; `--guard RULE` on the commands that watch; `help COMMAND`,
// `completion` (the local root's conversations completed for a PATH or
// `--conversation`, listed within a second, never a server), `--version`
// with the commit `debug.ReadBuildInfo` reports): flags parsed into
// `session.Options` and handed to `session` or to the package that does the
// work (`serve`, `gen`, `export`).
//
// A mistake is one line naming it and one of hint, exit 2 (`usage.go`).
//
// `ls` piped or `--json` prints `fleet.Row`s in the fleet's words.
//
// It imports `session` and the packages it calls.
package cli
