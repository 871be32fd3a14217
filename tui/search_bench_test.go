package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"

	"ohwatch/reducer"
)

var (
	searchBenchOnce sync.Once
	searchBench     *reducer.Log
)

// searchBenchData is 100k generated events (each its own bytes, ~147 MB)
// and one observation of 50 MB of log lines, built once.
func searchBenchData(b *testing.B) *reducer.Log {
	searchBenchOnce.Do(func() {
		log := reducer.NewLog(nil, 0)
		log.Append(generatedEvents(b, 100_000, 7)...)
		var text strings.Builder
		for i := 0; text.Len() < 50<<20; i++ {
			text.WriteString("row " + strconv.Itoa(i) + ": GET /api/items?page=" + strconv.Itoa(i%977) + " 200 OK in 12ms\n")
		}
		content, _ := json.Marshal(text.String())
		raw := `{"id":"huge","timestamp":"2026-01-27T03:56:24.000000","source":"environment","kind":"ObservationEvent",` +
			`"tool_name":"terminal","tool_call_id":"call_huge","action_id":"none","observation":{"kind":"TerminalObservation",` +
			`"content":[{"type":"text","text":` + string(content) + `}],"is_error":false}}`
		log.Append(decode(b, []byte(raw)))
		searchBench = log
	})
	return searchBench
}

// BenchmarkSearchReadFloor reads the text a search looks at (every
// event's summary and raw JSON) once, as fast as memory allows: the floor
// the search is measured against.
func BenchmarkSearchReadFloor(b *testing.B) {
	log := searchBenchData(b)
	b.SetBytes(searchBytes(log))
	b.ResetTimer()
	for b.Loop() {
		found := 0
		for i := 0; i < log.Len(); i++ {
			ev := log.Event(i)
			if strings.IndexByte(ev.Summary, 0) >= 0 || bytes.IndexByte(ev.Raw, 0) >= 0 {
				found++
			}
		}
		if found != 0 {
			b.Fatal("a NUL byte in JSON text")
		}
	}
}

// BenchmarkSearch100kPlus50MB searches every event of that log, chunk by
// chunk as the TUI does, for a query found nowhere (the whole text is
// read): lower case (matched in any case) and with a capital (exact).
func BenchmarkSearch100kPlus50MB(b *testing.B) {
	log := searchBenchData(b)
	for _, query := range []string{"row 99999999", "Row 99999999"} {
		b.Run(strings.ReplaceAll(query, " ", "_"), func(b *testing.B) {
			b.SetBytes(searchBytes(log))
			b.ResetTimer()
			for b.Loop() {
				match := newMatcher(query)
				total := 0
				for from := 0; from < log.Len(); {
					next, matches, _ := scanEvents(context.Background(), log, match, from, log.Len())
					total += len(matches)
					from = next
				}
				if total != 0 {
					b.Fatalf("%d matches", total)
				}
			}
		})
	}
}

// searchBytes is the size of the text a search reads.
func searchBytes(log *reducer.Log) int64 {
	var n int64
	for i := 0; i < log.Len(); i++ {
		ev := log.Event(i)
		n += int64(len(ev.Summary) + len(ev.Raw))
	}
	return n
}
