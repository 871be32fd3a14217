package conversation

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"ohwatch/reducer"
	"ohwatch/theme"
	"ohwatch/tui/internal/tuitest"
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
		log.Append(tuitest.GeneratedEvents(b, 100_000, 7)...)
		var text strings.Builder
		for i := 0; text.Len() < 50<<20; i++ {
			text.WriteString("row " + strconv.Itoa(i) + ": GET /api/items?page=" + strconv.Itoa(i%977) + " 200 OK in 12ms\n")
		}
		content, _ := json.Marshal(text.String())
		raw := `{"id":"huge","timestamp":"2026-01-27T03:56:24.000000","source":"environment","kind":"ObservationEvent",` +
			`"tool_name":"terminal","tool_call_id":"call_huge","action_id":"none","observation":{"kind":"TerminalObservation",` +
			`"content":[{"type":"text","text":` + string(content) + `}],"is_error":false}}`
		log.Append(tuitest.Decode(b, []byte(raw)))
		searchBench = log
	})
	return searchBench
}

// readFloor reads the text a search looks at (every event's summary and
// raw JSON) once, as fast as memory allows (bytes.IndexByte for a byte
// JSON text never holds): the floor a search is measured against.
func readFloor(b *testing.B, log *reducer.Log) {
	for i := 0; i < log.Len(); i++ {
		ev := log.Event(i)
		if strings.IndexByte(ev.Summary, 0) >= 0 || bytes.IndexByte(ev.Raw, 0) >= 0 {
			b.Fatal("a NUL byte in JSON text")
		}
	}
}

// searchAll searches every event of log for query, chunk by chunk as the
// TUI does, and returns the number of matches.
func searchAll(log *reducer.Log, query string) int {
	match := newMatcher(query)
	total := 0
	for from := 0; from < log.Len(); {
		next, matches, _, _ := scanEvents(context.Background(), log, match, from, log.Len(), searchChunkEvents)
		total += len(matches)
		from = next
	}
	return total
}

// BenchmarkSearch100kPlus50MB searches every event of that log for
// queries found nowhere (so the whole text is read): lower case (matched
// in any case) and with a capital (exact). Each round also reads the text
// once (readFloor), and the benchmark reports the search's time as a
// multiple of that floor: in wall time ("x-floor") and in the CPU time of
// the thread ("x-floor-cpu", Linux), which on a shared, loaded machine
// leaves out the waiting for a core. Both are measured in the same rounds.
func BenchmarkSearch100kPlus50MB(b *testing.B) {
	log := searchBenchData(b)
	for _, query := range []string{"row 99999999", "Row 99999999", "eviction", "ttlcache.go:9999"} {
		b.Run(strings.ReplaceAll(query, " ", "_"), func(b *testing.B) {
			b.SetBytes(searchBytes(log))
			defer tuitest.LockThread()()
			var floor, search, floorCPU, searchCPU time.Duration
			for b.Loop() {
				c0, t0 := tuitest.ThreadCPU(), time.Now()
				readFloor(b, log)
				c1, t1 := tuitest.ThreadCPU(), time.Now()
				if n := searchAll(log, query); n != 0 {
					b.Fatalf("%d matches", n)
				}
				floor, search = floor+t1.Sub(t0), search+time.Since(t1)
				floorCPU, searchCPU = floorCPU+c1-c0, searchCPU+tuitest.ThreadCPU()-c1
			}
			b.ReportMetric(float64(search)/float64(floor), "x-floor")
			b.ReportMetric(float64(search.Milliseconds())/float64(b.N), "search-ms")
			b.ReportMetric(float64(floor.Milliseconds())/float64(b.N), "floor-ms")
			if floorCPU > 0 {
				b.ReportMetric(float64(searchCPU)/float64(floorCPU), "x-floor-cpu")
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

// BenchmarkViewSearching is BenchmarkView in colour, without a search
// and with one: the rows highlight their matches, the scrubber marks
// them, the footer counts them. A frame must cost about the same.
func BenchmarkViewSearching(b *testing.B) {
	for _, n := range []int{1_000, 1_000_000} {
		log := benchLog(b, n)
		for _, query := range []string{"", "test"} {
			b.Run(strconv.Itoa(n)+"/"+map[string]string{"": "none", "test": "test"}[query], func(b *testing.B) {
				m := NewConversation(Options{Log: log, Theme: theme.DarkMode})
				m, _ = send(m, tuitest.WindowSize(160, 48))
				_ = m.startSearch(query, false, true)
				m = finishSearch(b, m)
				m.moveTo(n / 2)
				if query != "" && len(m.search.matches) == 0 {
					b.Fatal("no match")
				}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					_ = m.View()
				}
			})
		}
	}
}
