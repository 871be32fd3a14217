package fleetsource

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"ohwatch/fleet"
	"ohwatch/gen"
	"ohwatch/internal/benchproc"
	"ohwatch/model"
	"ohwatch/serve"
)

// scaleServerEnv makes the test binary an agent-server listing a large
// account (see TestMain): "LISTED:LIVE:RATE" lists LISTED conversations,
// the first LIVE of them running and played live at RATE events a second
// by a serve.Server, the others finished (with stats) and only listed.
const scaleServerEnv = "OHWATCH_FLEET_SCALE_SERVER"

// runScaleServer serves the account spec describes and prints its URL.
func runScaleServer(spec string) int {
	var listed, live int
	var rate float64
	if _, err := fmt.Sscanf(strings.ReplaceAll(spec, ":", " "), "%d %d %g", &listed, &live, &rate); err != nil {
		fmt.Fprintln(os.Stderr, "scale server:", err)
		return 1
	}
	srv := serve.New(serve.Options{Speed: 1, FinishConfirmDelay: time.Hour})
	t0 := time.Unix(1_700_000_000, 0).UTC()
	items := make([]string, listed)
	for c := range listed {
		id := fmt.Sprintf("%032x", 0x5ca1e000000+c)
		status := model.StatusFinished
		if c < live {
			status = model.StatusRunning
			evs := make([]model.Event, 0, 3000)
			for raw := range gen.Events(gen.Options{Events: 3000, Seed: int64(c + 1)}) {
				ev, err := model.Decode(raw)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					return 1
				}
				ev.Time = t0.Add(time.Duration(float64(len(evs)) / rate * float64(time.Second)))
				evs = append(evs, ev)
			}
			srv.Add(id, nil, evs)
		}
		items[c] = fmt.Sprintf(`{"id":%q,"title":"conversation %d of a large account","execution_status":%q,`+
			`"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-%02dT00:00:00Z",`+
			`"stats":{"usage_to_metrics":{"agent":{"accumulated_cost":0.42,"accumulated_token_usage":{"prompt_tokens":12000,"completion_tokens":800}}}}}`,
			id, c, status, 1+c%28)
	}
	back := srv.Handler()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/conversations/search", func(w http.ResponseWriter, r *http.Request) {
		start := 0
		fmt.Sscan(r.URL.Query().Get("page_id"), &start)
		start = min(max(start, 0), listed)
		end := min(start+100, listed)
		next := "null"
		if end < listed {
			next = fmt.Sprintf("%q", fmt.Sprint(end))
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"items":[%s],"next_page_id":%s}`, strings.Join(items[start:end], ","), next)
	})
	mux.Handle("/", back)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	go http.Serve(ln, mux)
	fmt.Println("http://" + ln.Addr().String())
	io.Copy(io.Discard, os.Stdin)
	srv.Close()
	return 0
}

// openFiles is the number of file descriptors this process holds.
func openFiles() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(ents)
}

// benchScale watches a server listing listed conversations, live of them
// running at 100 events/s each, with at most maxStreams streams, folding
// every slice into a fleet.Fleet as the table does. It reports the time
// to the first rows (the first slice that lists any), the time until the
// whole listing is in, then, once every live conversation streams, the
// watching process's CPU over a 10 s window (default interval: the
// listing is asked again every 5 s), its open files, and its resident
// memory after a GC.
func benchScale(b *testing.B, listed, live, maxStreams int) {
	gcAsAFleet(b)
	for b.Loop() {
		url, stop := benchproc.Start(b, scaleServerEnv, fmt.Sprintf("%d:%d:100", listed, live))
		ctx, cancel := context.WithCancel(context.Background())
		c := client(b, url, benchKey)
		began := time.Now()
		feed := Watch(ctx, []Source{Server(c, ServerOptions{MaxStreams: maxStreams})}, Options{})
		f := fleet.New()
		var firstRows time.Duration
		streaming := map[model.ConversationRef]bool{}
		for f.Len() < listed || len(streaming) < min(live, maxStreams) {
			ups, ok := <-feed
			if !ok {
				b.Fatal("the feed closed")
			}
			convs, _ := SplitSources(ups)
			f.Apply(convs)
			if firstRows == 0 && f.Len() > 0 {
				firstRows = time.Since(began)
			}
			for i := range convs {
				if len(convs[i].Batch.Events) > 0 {
					streaming[convs[i].Ref] = true
				}
			}
		}
		allIn := time.Since(began)
		var events int
		stopProfile := windowProfile(b)
		start, from, faults := cpuTime(), time.Now(), minorFaults()
		var gcs runtime.MemStats
		runtime.ReadMemStats(&gcs)
		gcsBefore := gcs.NumGC
		window := time.After(10 * time.Second)
	measure:
		for {
			select {
			case ups := <-feed:
				convs, _ := SplitSources(ups)
				for i := range convs {
					events += len(convs[i].Batch.Events)
				}
				f.Apply(convs)
			case <-window:
				break measure
			}
		}
		cpu, wall, faulted := cpuTime()-start, time.Since(from), minorFaults()-faults
		stopProfile()
		runtime.ReadMemStats(&gcs)
		fds := openFiles()
		rssBeforeGC, peak := residentBytes(), peakResidentBytes()
		runtime.GC()
		debug.FreeOSMemory()
		rss := residentBytes()
		runtime.KeepAlive(f)
		cancel()
		stop()
		b.ReportMetric(float64(firstRows.Milliseconds()), "ms-first-rows")
		b.ReportMetric(allIn.Seconds(), "s-all-listed")
		b.ReportMetric(float64(cpu)/float64(wall)*100, "%cpu")
		b.ReportMetric(float64(events)/wall.Seconds(), "events/s")
		b.ReportMetric(float64(fds), "open-files")
		b.ReportMetric(float64(faulted)/wall.Seconds(), "minor-faults/s")
		b.ReportMetric(float64(gcs.NumGC-gcsBefore)/wall.Seconds(), "gcs/s")
		b.ReportMetric(float64(rss)/(1<<20), "rss-MiB")
		b.ReportMetric(float64(rssBeforeGC)/(1<<20), "rss-before-gc-MiB")
		b.ReportMetric(float64(peak)/(1<<20), "peak-rss-MiB")
	}
}

// BenchmarkFleetScale20k: 20,000 listed conversations, 100 of them live at
// 100 events/s each, streamed all (--max-streams 100). Targets: RSS ≤ 300
// MB, open files ≤ max-streams + 30, first rows ≤ 1 s, CPU ≤ 0.5 core.
// Run with -benchtime 1x.
func BenchmarkFleetScale20k(b *testing.B) { benchScale(b, 20_000, 100, 100) }

// BenchmarkFleetScale20kDefault is the same account with the default
// --max-streams (64).
func BenchmarkFleetScale20kDefault(b *testing.B) { benchScale(b, 20_000, 100, DefaultMaxStreams) }

// BenchmarkFleetScale100k: 100,000 listed conversations, 100 live.
// Target: RSS ≤ 1 GB. Run with -benchtime 1x. The live runs (30 s) may
// have ended by the time the listing is in: its CPU and events/s are not
// the figure of a live fleet.
func BenchmarkFleetScale100k(b *testing.B) { benchScale(b, 100_000, 100, 100) }

// windowProfileEnv names a file to write a CPU profile of the measured
// window alone to, without the listing and history reads before it.
const windowProfileEnv = "OHWATCH_BENCH_WINDOW_PROFILE"

// windowProfile starts that profile when asked and returns its stop.
func windowProfile(b *testing.B) func() {
	path := os.Getenv(windowProfileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
