// Command docgen writes the documentation generated from ohwatch's command
// tree: the command and topic pages under docs/commands, docs/keys.md and
// docs/config.schema.json (a test in cli fails when they are stale), and,
// with -man DIR, the man pages the release archives carry. Run it from
// the repository's root:
//
//	go run ./internal/docgen
//	go run ./internal/docgen -man dist/man
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"ohwatch/cli"
)

func main() {
	docs := flag.String("docs", "docs", "write the generated pages under `DIR`")
	man := flag.String("man", "", "write the man pages into `DIR` instead")
	flag.Parse()
	var err error
	if *man != "" {
		err = cli.WriteMan(*man)
	} else {
		// Pages no longer generated go: the directory is the tree's.
		if err = os.RemoveAll(filepath.Join(*docs, "commands")); err == nil {
			err = cli.WriteDocs(*docs)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "docgen:", err)
		os.Exit(1)
	}
}
