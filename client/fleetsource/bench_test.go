package fleetsource

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"ohwatch/fleet"
	"ohwatch/gen"
	"ohwatch/internal/benchproc"
	"ohwatch/model"
	"ohwatch/serve"
)

// benchServerEnv makes the test binary an agent-server serving a fleet of
// generated conversations (see TestMain), so that a benchmark measures the
// CPU and memory of the watching process alone. Its value is
// "CONVERSATIONS:EVENTS:RATE": RATE events a second per conversation, 0
// for everything at once.
const benchServerEnv = "OHWATCH_FLEET_BENCH_SERVER"

func TestMain(m *testing.M) {
	if spec := os.Getenv(benchServerEnv); spec != "" {
		os.Exit(runBenchServer(spec))
	}
	if spec := os.Getenv(scaleServerEnv); spec != "" {
		os.Exit(runScaleServer(spec))
	}
	if os.Getenv(endlessServerEnv) != "" {
		os.Exit(runEndlessServer())
	}
	os.Exit(m.Run())
}

// runBenchServer serves the fleet spec describes, prints its URL and the
// JSON bytes of all its events, and serves until stdin closes.
func runBenchServer(spec string) int {
	var convs, events int
	var rate float64
	if _, err := fmt.Sscanf(strings.ReplaceAll(spec, ":", " "), "%d %d %g", &convs, &events, &rate); err != nil {
		fmt.Fprintln(os.Stderr, "bench server:", err)
		return 1
	}
	speed := 0.0
	if rate > 0 {
		speed = 1
	}
	srv := serve.New(serve.Options{Speed: speed, FinishConfirmDelay: time.Hour})
	var jsonBytes int64
	t0 := time.Unix(1_700_000_000, 0).UTC()
	for c := range convs {
		evs := make([]model.Event, 0, events)
		for raw := range gen.Events(gen.Options{Events: events, Seed: int64(c + 1)}) {
			jsonBytes += int64(len(raw))
			ev, err := model.Decode(raw)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			if rate > 0 {
				ev.Time = t0.Add(time.Duration(float64(len(evs)) / rate * float64(time.Second)))
			}
			evs = append(evs, ev)
		}
		srv.Add(fmt.Sprintf("%032x", 0xf1ee7000+c), nil, evs)
	}
	url, err := srv.Start(context.Background(), "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(url, jsonBytes)
	io.Copy(io.Discard, os.Stdin)
	srv.Close()
	return 0
}

// startBenchServer starts the server process and returns its URL, the JSON
// bytes it serves, and how to stop it.
func startBenchServer(b *testing.B, convs, events int, rate float64) (string, int64, func()) {
	line, stop := benchproc.Start(b, benchServerEnv, fmt.Sprintf("%d:%d:%g", convs, events, rate))
	url, n, _ := strings.Cut(line, " ")
	jsonBytes, _ := strconv.ParseInt(n, 10, 64)
	return url, jsonBytes, stop
}

// cpuTime is the CPU time (user + system) this process has used: on a
// loaded machine it counts only this process's work.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// minorFaults is the number of minor page faults this process has taken:
// each first touch of a page the runtime got back from the kernel.
func minorFaults() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Minflt
}

// benchWatch is a server source tuned as a real fleet is, with the REST
// check off (it would only add a request per conversation every 30 s),
// streaming all of the benchmarks' 100 conversations: a fleet streams at
// most 64 by default, and none that has settled (StreamAll reads each of
// those once, as traces do). Without these, the two benchmarks below
// waited for ever for conversations the fleet shows from its listing.
func benchWatch(b *testing.B, url string) Source {
	c := client(b, url, benchKey)
	return Server(c, ServerOptions{Interval: time.Second, MaxStreams: 100, StreamAll: true})
}

// BenchmarkFleetLive100 watches 100 conversations played live by a server
// in another process at 100 events/s each (10k events/s in all), folding
// every slice into a fleet.Fleet as the table does, and reports the
// watching process's CPU as a share of one core over a 10 s window once
// every conversation streams, the slices a second (frames: at most one
// per 16 ms) and the events a second received. Run with -benchtime=1x.
func BenchmarkFleetLive100(b *testing.B) {
	const convs, rate, window = 100, 100, 10 * time.Second
	gcAsAFleet(b)
	for b.Loop() {
		url, _, stop := startBenchServer(b, convs, 3000, rate)
		ctx, cancel := context.WithCancel(context.Background())
		f := fleet.New()
		feed := Watch(ctx, []Source{benchWatch(b, url)}, Options{})
		// Warm up: every conversation listed and streaming.
		live := map[model.ConversationRef]bool{}
		for len(live) < convs {
			for _, u := range <-feed {
				if u.Ref.ID != "" && len(u.Batch.Events) > 0 {
					live[u.Ref] = true
				}
			}
		}
		var slices, events int
		var longest time.Duration
		start, began, last := cpuTime(), time.Now(), time.Now()
		for time.Since(began) < window {
			ups := <-feed
			now := time.Now()
			longest = max(longest, now.Sub(last))
			last = now
			slices++
			for i := range ups {
				events += len(ups[i].Batch.Events)
			}
			convsOnly, _ := SplitSources(ups)
			f.Apply(convsOnly)
		}
		cpu, wall := cpuTime()-start, time.Since(began)
		cancel()
		stop()
		b.ReportMetric(float64(cpu)/float64(wall)*100, "%cpu")
		b.ReportMetric(float64(slices)/wall.Seconds(), "slices/s")
		b.ReportMetric(float64(events)/wall.Seconds(), "events/s")
		b.ReportMetric(float64(longest.Milliseconds()), "max-gap-ms")
	}
}

// BenchmarkFleetMemory100x10k watches 100 conversations of 10k generated
// events each, served at once by a server in another process, folding them
// into a fleet.Fleet, and reports the watching process's resident memory
// (VmRSS after a GC that returns what it can) and its live heap, each
// against the JSON bytes of every event received. Run with -benchtime=1x.
func BenchmarkFleetMemory100x10k(b *testing.B) {
	const convs, events = 100, 10_000
	gcAsAFleet(b)
	for b.Loop() {
		url, jsonBytes, stop := startBenchServer(b, convs, events, 0)
		ctx, cancel := context.WithCancel(context.Background())
		f := fleet.New()
		feed := Watch(ctx, []Source{benchWatch(b, url)}, Options{})
		began := time.Now()
		complete := 0
		for complete < convs {
			convsOnly, _ := SplitSources(<-feed)
			f.Apply(convsOnly)
			complete = 0
			for _, ref := range f.Refs() {
				if r, _ := f.Row(ref); r.Events >= events {
					complete++
				}
			}
		}
		took := time.Since(began)
		runtime.GC()
		debug.FreeOSMemory()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		rss := residentBytes()
		b.ReportMetric(float64(rss)/float64(jsonBytes), "rss/json")
		b.ReportMetric(float64(ms.HeapAlloc)/float64(jsonBytes), "heap/json")
		b.ReportMetric(float64(rss)/(1<<20), "rss-MiB")
		b.ReportMetric(float64(jsonBytes)/(1<<20), "json-MiB")
		b.ReportMetric(took.Seconds(), "s-to-load")
		runtime.KeepAlive(f)
		cancel()
		stop()
	}
}

// residentBytes is this process's resident set (VmRSS), 0 when unknown.
func residentBytes() int64 { return procStatusBytes("VmRSS:") }

// peakResidentBytes is the most memory this process has held resident
// (VmHWM): what a user's machine had to give it, collections or not.
func peakResidentBytes() int64 { return procStatusBytes("VmHWM:") }

// procStatusBytes reads one kB figure of /proc/self/status.
func procStatusBytes(field string) int64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// BenchmarkLocalRootFirstScreen1000 watches a local root of 1000
// conversations (40 events each, last written an hour ago) and reports the
// time from the start of the watch to the first slice folded into a
// fleet.Fleet holding every conversation, with its rows sorted and
// grouped: what the table's first screen needs.
func BenchmarkLocalRootFirstScreen1000(b *testing.B) {
	const convs = 1000
	root := b.TempDir()
	old := time.Now().Add(-time.Hour)
	for i := range convs {
		dir := filepath.Join(root, fmt.Sprintf("%032x", 0xd15c0000+i))
		if err := gen.WriteDir(dir, gen.Options{Events: 40, Seed: int64(i)}); err != nil {
			b.Fatal(err)
		}
		if err := os.Chtimes(filepath.Join(dir, "events"), old, old); err != nil {
			b.Fatal(err)
		}
	}
	var total time.Duration
	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		began := time.Now()
		feed := Watch(ctx, []Source{Local(root, LocalOptions{})}, Options{})
		f := fleet.New()
		for f.Len() < convs {
			convsOnly, _ := SplitSources(<-feed)
			f.Apply(convsOnly)
		}
		rows := fleet.Flatten(f.Rows(fleet.Query{Sort: fleet.ColIdle}))
		total += time.Since(began)
		if len(rows) < convs {
			b.Fatalf("%d rows", len(rows))
		}
		cancel()
		for range feed {
		}
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-first-screen")
}

// benchKey is the session key the benchmarks' clients hold, as every real
// one does: each event and listed item they read is redacted of it
// (redact.JSON), which is part of what the figures measure. The
// servers they watch do not ask for it.
const benchKey = "sk-oh-5f1b4a7e9d3c2b1a0f9e8d7c6b5a4"

// gcAsAFleet runs the benchmark with the collector's target the fleet
// command sets (GCPercent), as the process it stands for does.
func gcAsAFleet(b *testing.B) {
	prev := debug.SetGCPercent(GCPercent)
	b.Cleanup(func() { debug.SetGCPercent(prev) })
}
