package main

import (
	"flag"
	"fmt"

	"ohwatch/reducer"
)

// branchUsage is the help of --branch on every command that reads a
// recording along one path of its tree.
const branchUsage = "follow the branch through event `ID` of a conversation that was navigated (SDK v1.31+): the path from the root through it to HEAD when HEAD is below it, else to the newest event below it (default: HEAD's path)"

// bindBranch adds --branch to fs.
func bindBranch(fs *flag.FlagSet) *string {
	return fs.String("branch", "", branchUsage)
}

// branchPath is the path a command follows: HEAD's, or with id the path
// through that event to its tip (reducer.Log.Tip). An id the recording does
// not hold is a usage error.
func branchPath(log *reducer.Log, id string) (reducer.Path, error) {
	if id == "" {
		return log.HeadPath(), nil
	}
	i, ok := log.IndexOf(id)
	if !ok {
		return nil, usageErr(fmt.Sprintf("--branch: no event %q in this recording", id),
			"--branch takes the id of one of its events; 'ohwatch replay PATH' shows them, leave --branch out for HEAD's path")
	}
	return log.Path(log.Tip(i)), nil
}
