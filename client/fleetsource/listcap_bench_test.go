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
	"sync/atomic"
	"testing"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/headless"
	"ohwatch/internal/benchproc"
	"ohwatch/model"
)

// endlessServerEnv makes the test binary an agent-server whose listing
// never ends (see TestMain): every page holds 100 conversations, each the
// real agent-server's answer for a finished conversation (testdata,
// 4.4 kB: its agent, its stats with the calls' lists) under an id of its
// place, so a listing asked again brings the same items byte for byte.
const endlessServerEnv = "OHWATCH_FLEET_ENDLESS_SERVER"

// runEndlessServer serves that listing and prints its URL.
func runEndlessServer() int {
	tmpl, err := os.ReadFile("testdata/listed_item.json")
	if err != nil {
		fmt.Fprintln(os.Stderr, "endless server:", err)
		return 1
	}
	const realID = "085fb318-0eb4-47fb-9bfe-ef5345479700"
	item := strings.TrimSpace(string(tmpl))
	if !strings.Contains(item, realID) {
		fmt.Fprintln(os.Stderr, "endless server: the item's id is not", realID)
		return 1
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/conversations/search", func(w http.ResponseWriter, r *http.Request) {
		start := 0
		fmt.Sscan(r.URL.Query().Get("page_id"), &start)
		var b strings.Builder
		b.WriteString(`{"items":[`)
		for i := range 100 {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strings.ReplaceAll(item, realID, model.DashedConversationID(fmt.Sprintf("%032x", 0xe4d1e55000000+start+i))))
		}
		fmt.Fprintf(&b, `],"next_page_id":"%d"}`, start+100)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, b.String())
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	go http.Serve(ln, mux)
	fmt.Println("http://" + ln.Addr().String())
	io.Copy(io.Discard, os.Stdin)
	return 0
}

// listingCounter counts the listings begun (a search without page_id).
type listingCounter struct {
	n    atomic.Int64
	next http.RoundTripper
}

func (c *listingCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Path == "/api/conversations/search" && r.URL.Query().Get("page_id") == "" {
		c.n.Add(1)
	}
	return c.next.RoundTrip(r)
}

// BenchmarkFleetListingCap is `ohwatch fleet URL --headless` against a
// server whose listing never ends: the listing stops at the cap (100,000
// conversations, the warning said once), and is asked again every second
// (5 s by default; shorter only so that the re-listings come sooner).
// It reports the live heap and the resident memory once the first listing
// is in, and again after four more listings of the same 1,001 pages:
// what 100,000 listed rows cost, and that re-listing costs nothing more.
// Target: RSS under 300 MB, flat. Run with -benchtime 1x.
func BenchmarkFleetListingCap(b *testing.B) { benchListingCap(b, 0) }

// BenchmarkFleetListingCap20k is the same with the cap at 20,000
// (--max-listed), a fifth of the time.
func BenchmarkFleetListingCap20k(b *testing.B) { benchListingCap(b, 20_000) }

// benchListingCap is those benchmarks with the cap at maxListed (0: the
// default cap).
func benchListingCap(b *testing.B, maxListed int) {
	gcAsAFleet(b)
	convs := maxListed
	if convs == 0 {
		convs = agentserver.DefaultMaxListed
	}
	for b.Loop() {
		url, stop := benchproc.Start(b, endlessServerEnv, "1")
		counter := &listingCounter{next: http.DefaultTransport.(*http.Transport).Clone()}
		c, err := agentserver.New(url, "", agentserver.WithHTTPClient(&http.Client{Transport: counter}))
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		feed := Watch(ctx, []Source{Server(c, ServerOptions{Interval: time.Second, MaxListed: maxListed})}, Options{})
		w := headless.NewFleetWatch(headless.FleetOptions{SourcesReported: true})
		warnings := 0
		// take folds the feed until the listings counted reach n: a
		// listing that changes nothing sends nothing, so the count is
		// looked at every 100 ms as well.
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		take := func(n int64) {
			for counter.n.Load() < n {
				select {
				case ups, ok := <-feed:
					if !ok {
						b.Fatal("the feed closed")
					}
					for i := range ups {
						if ups[i].Ref.ID == "" {
							warnings += len(ups[i].Batch.Warnings)
						}
					}
					w.Handle(ups)
				case <-tick.C:
				}
			}
		}
		began := time.Now()
		take(2)
		listed := time.Since(began)
		heap1, rss1 := settledMemory()
		heapProfile(b, ".listed")
		take(6)
		heap2, rss2 := settledMemory()
		heapProfile(b, "")
		peak := peakResidentBytes()
		runtime.KeepAlive(w)
		cancel()
		for range feed {
		}
		stop()
		if warnings != 1 {
			b.Errorf("the listing cut was said %d times, want once", warnings)
		}
		b.ReportMetric(listed.Seconds(), "s-listed")
		b.ReportMetric(float64(heap1)/(1<<20), "heap-MiB-listed")
		b.ReportMetric(float64(rss1)/(1<<20), "rss-MiB-listed")
		b.ReportMetric(float64(heap2)/(1<<20), "heap-MiB-relisted")
		b.ReportMetric(float64(rss2)/(1<<20), "rss-MiB-relisted")
		b.ReportMetric(float64(peak)/(1<<20), "peak-rss-MiB")
		b.ReportMetric(float64(heap2)/float64(convs), "heap-B/conv")
	}
}

// heapProfileEnv names a file to write the live heap to once the
// re-listings are in (and, with ".listed" added, once the first is).
const heapProfileEnv = "OHWATCH_BENCH_HEAP_PROFILE"

func heapProfile(b *testing.B, suffix string) {
	path := os.Getenv(heapProfileEnv)
	if path == "" {
		return
	}
	path += suffix
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		b.Fatal(err)
	}
}

// settledMemory is the live heap after a collection and the resident
// memory once the collector gave back what it could.
func settledMemory() (heap, rss int64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	debug.FreeOSMemory()
	return int64(ms.HeapAlloc), residentBytes()
}
