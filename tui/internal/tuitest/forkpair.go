package tuitest

import (
	"sync"
	"testing"

	"ohwatch/client/files"
	"ohwatch/gen"
	"ohwatch/reducer"
)

// forkPair is a generated conversation and a fork of it, written to the
// first caller's temporary directory and read once per test binary: the
// compare screen's fixture, kept in memory.
var forkPair struct {
	once  sync.Once
	convs map[string]*files.Conversation
	err   error
}

// ForkPair names the fixture's two recordings, the parent's and the
// fork's (300 generated events, seed 7, one fork), for ForkPairLog and
// ForkPoint.
func ForkPair(tb testing.TB) []string {
	tb.Helper()
	forkPair.once.Do(func() {
		dirs, err := gen.WriteRoot(tb.TempDir(), gen.Options{Events: 300, Seed: 7, Forks: 1})
		if err != nil {
			forkPair.err = err
			return
		}
		forkPair.convs = map[string]*files.Conversation{}
		for k, name := range []string{"parent", "fork"} {
			conv, err := files.Load(dirs[k])
			if err != nil {
				forkPair.err = err
				return
			}
			forkPair.convs[name] = conv
		}
	})
	if forkPair.err != nil {
		tb.Fatal(forkPair.err)
	}
	return []string{"parent", "fork"}
}

// ForkPairLog is a fresh log of the fixture's recording name.
func ForkPairLog(tb testing.TB, name string) *reducer.Log {
	tb.Helper()
	ForkPair(tb)
	conv := forkPair.convs[name]
	log := reducer.NewLog(conv.Base, conv.EventFiles)
	log.Append(conv.Events...)
	return log
}

// ForkPoint is the event the fixture's recording name was forked at, as
// its meta.json says.
func ForkPoint(tb testing.TB, name string) string {
	tb.Helper()
	ForkPair(tb)
	point := forkPair.convs[name].ForkedFromEvent
	if point == "" {
		tb.Fatalf("%s names no fork point", name)
	}
	return point
}
