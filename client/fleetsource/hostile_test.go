package fleetsource

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/serve"
)

// hostile is an agent-server whose listing the test writes item by item
// (sizes, statuses, malformed items, odd ids, endless pages); the history
// and sockets of the conversations it lists are a real serve.Server's. It
// counts the sockets open at once and records every route asked.
type hostile struct {
	t       *testing.T
	listed  signal // a listing's first page was asked for
	backend http.Handler
	srv     *httptest.Server
	// serveConversation gives a listed conversation events behind it.
	serveConversation func(id string)

	mu sync.Mutex
	// items is the listing, one raw JSON item each; pageSize items a page.
	items    []string
	pageSize int
	// endless invents pageSize new conversations on every page, for ever.
	endless bool
	// gate, when set, holds every page after the first until closed.
	gate       chan struct{}
	listings   int
	requests   int
	paths      []string
	open, peak int             // sockets open now and at most
	opened     int             // sockets opened in all
	streamed   map[string]bool // conversations whose socket was opened
}

func newHostile(t *testing.T) *hostile {
	h := &hostile{t: t, pageSize: 100, streamed: map[string]bool{}}
	back := serve.New(serve.Options{})
	t.Cleanup(back.Close)
	h.backend = back.Handler()
	h.srv = httptest.NewServer(h)
	t.Cleanup(h.srv.Close)
	h.serveConversation = func(id string) { back.Add(id, nil, testevents.Generated(t, 6, int64(len(id)))) }
	return h
}

// list sets the listing: each conversation by id and status, the later
// ones updated earlier, every one with events behind it.
func (h *hostile) list(convs ...[2]string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.items = nil
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, c := range convs {
		h.items = append(h.items, fmt.Sprintf(`{"id":%q,"title":"t%d","execution_status":%q,"updated_at":%q}`,
			c[0], i, c[1], base.Add(-time.Duration(i)*time.Minute).Format(time.RFC3339)))
		if model.IsConversationID(c[0]) {
			h.serveConversation(c[0])
		}
	}
}

// listAll lists n conversations, hexID(0) to hexID(n-1), all of one
// status, as list does.
func (h *hostile) listAll(n int, status string) {
	convs := make([][2]string, n)
	for i := range convs {
		convs[i] = [2]string{hexID(i), status}
	}
	h.list(convs...)
}

func (h *hostile) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.requests++
	h.paths = append(h.paths, r.URL.EscapedPath())
	h.mu.Unlock()
	switch {
	case r.URL.Path == "/api/conversations/search":
		h.page(w, r)
	case strings.HasPrefix(r.URL.Path, "/sockets/events/"), strings.HasPrefix(r.URL.Path, "/sockets/session/"):
		// Either socket: serve offers the session socket, as 1.45+ does.
		id := model.NormalizeConversationID(r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:])
		h.mu.Lock()
		h.open++
		h.peak = max(h.peak, h.open)
		h.opened++
		h.streamed[id] = true
		h.mu.Unlock()
		defer func() { h.mu.Lock(); h.open--; h.mu.Unlock() }()
		h.backend.ServeHTTP(w, r)
	default:
		h.backend.ServeHTTP(w, r)
	}
}

// page answers one page of the listing; page_id is the index of its first
// item.
func (h *hostile) page(w http.ResponseWriter, r *http.Request) {
	start := 0
	fmt.Sscan(r.URL.Query().Get("page_id"), &start)
	h.mu.Lock()
	if start == 0 {
		h.listings++
		h.listed.notify()
	}
	gate := h.gate
	var items []string
	next := ""
	if h.endless {
		for i := range h.pageSize {
			items = append(items, fmt.Sprintf(`{"id":"%032x","execution_status":"finished"}`, start+i+1))
		}
		next = fmt.Sprint(start + h.pageSize)
	} else {
		end := min(start+h.pageSize, len(h.items))
		// A copy: the test may rewrite an item while this page is written.
		items = append([]string(nil), h.items[start:end]...)
		if end < len(h.items) {
			next = fmt.Sprint(end)
		}
	}
	h.mu.Unlock()
	if start > 0 && gate != nil {
		select {
		case <-gate:
		case <-r.Context().Done():
			return
		}
	}
	out := `{"items":[` + strings.Join(items, ",") + `],"next_page_id":`
	if next == "" {
		out += "null}"
	} else {
		out += `"` + next + `"}`
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, out)
}

// state returns what the server saw, under its lock.
func (h *hostile) state(f func(h *hostile)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f(h)
}

func hexID(n int) string { return fmt.Sprintf("%032x", 0xabc000+n) }

// lastConn is a conversation's latest connection state (zero when none);
// callers hold the view's lock.
func lastConn(c *convView) model.ConnState {
	if c == nil || len(c.conns) == 0 {
		return model.ConnState{}
	}
	return c.conns[len(c.conns)-1]
}

// sourceWarnings are the warnings the source said about itself; callers
// hold the view's lock.
func sourceWarnings(v *fleetView) []string {
	for ref, c := range v.convs {
		if ref.ID == "" {
			return c.warnings
		}
	}
	return nil
}

// TestHostileServerStreamsOnlyWhatCanChange lists 30 conversations, 20 of
// them settled (finished, error, stuck, idle), 8 running and 2 waiting for
// confirmation, with at most 4 streams: the settled ones are shown from
// the listing and never streamed, the 2 waiting ones and the 2 most
// recently updated running ones are, and never more than 4 sockets are
// open. A settled conversation whose listing changes to running is then
// streamed, displacing an older running one.
func TestHostileServerStreamsOnlyWhatCanChange(t *testing.T) {
	h := newHostile(t)
	var convs [][2]string
	for i := range 30 {
		status := []string{model.StatusFinished, model.StatusError, model.StatusStuck, model.StatusIdle}[i%4]
		switch {
		case i >= 20 && i < 28:
			status = model.StatusRunning
		case i >= 28:
			status = model.StatusWaitingForConfirmation
		}
		convs = append(convs, [2]string{hexID(i), status})
	}
	h.list(convs...)
	opts := fastServer
	opts.MaxStreams = 4
	v, _ := watchFleet(t, Server(client(t, h.srv.URL, ""), opts))
	want := []string{hexID(20), hexID(21), hexID(28), hexID(29)}
	v.waitFor(t, "the 4 most urgent streamed and live", func(v *fleetView) bool {
		for _, id := range want {
			if lastConn(v.conv(id)).Phase != model.PhaseLive {
				return false
			}
		}
		return v.conversations() == 30
	})
	// Several listings later, nothing else was streamed.
	h.state(func(h *hostile) { h.listings = 0 })
	v.waitFor(t, "three more listings", func(*fleetView) bool {
		n := 0
		h.state(func(h *hostile) { n = h.listings })
		return n >= 3
	}, &h.listed)
	h.state(func(h *hostile) {
		if h.peak > 4 {
			t.Errorf("%d sockets open at once, want at most 4", h.peak)
		}
		for id := range h.streamed {
			if !strings.Contains(strings.Join(want, " "), id) {
				t.Errorf("%s was streamed; only %v should be", id, want)
			}
		}
	})
	v.mu.Lock()
	for i := range 20 {
		c := v.conv(hexID(i))
		if lastConn(c).Phase != model.PhaseListed || len(c.ids) > 0 {
			t.Errorf("settled %s: conn %+v, %d events; want its listing alone", hexID(i), lastConn(c), len(c.ids))
		}
	}
	v.mu.Unlock()
	// A settled conversation runs again, updated last.
	convs[0] = [2]string{hexID(0), model.StatusRunning}
	h.mu.Lock()
	h.items[0] = fmt.Sprintf(`{"id":%q,"title":"again","execution_status":"running","updated_at":"2026-01-02T00:00:00Z"}`, hexID(0))
	h.mu.Unlock()
	v.waitFor(t, "the conversation that runs again streamed, an older run displaced", func(v *fleetView) bool {
		return lastConn(v.conv(hexID(0))).Phase == model.PhaseLive && lastConn(v.conv(hexID(21))).Phase == model.PhaseListed
	})
}

// TestStreamsKeepTheirPlaceAmongEquals lists 6 running conversations
// with at most 3 streams (the other 3 shown from their listing, and saying
// so), then reverses their updated_at at every listing, as busy runs do:
// the 3 streams stay where they are, no socket is opened again (each
// reopening read a whole history again), until one of the others begins
// a new run, which displaces one.
func TestStreamsKeepTheirPlaceAmongEquals(t *testing.T) {
	h := newHostile(t)
	h.listAll(6, model.StatusRunning)
	opts := fastServer
	opts.MaxStreams = 3
	v, _ := watchFleet(t, Server(client(t, h.srv.URL, ""), opts))
	first := []string{hexID(0), hexID(1), hexID(2)}
	v.waitFor(t, "the 3 most recently updated streamed and live, the others said to wait on their listing", func(v *fleetView) bool {
		for _, id := range first {
			if lastConn(v.conv(id)).Phase != model.PhaseLive {
				return false
			}
		}
		for _, id := range []string{hexID(3), hexID(4), hexID(5)} {
			if lastConn(v.conv(id)).Phase != model.PhaseListed {
				return false
			}
		}
		return true
	})
	at := func(min int) string {
		return time.Date(2026, 1, 1, 0, min, 0, 0, time.UTC).Format(time.RFC3339)
	}
	listings := func() (n int) {
		h.state(func(h *hostile) { n = h.listings })
		return n
	}
	for round := range 4 {
		h.state(func(h *hostile) {
			for i := range h.items {
				newest := i // the later ones updated last this round, then the earlier
				if round%2 == 1 {
					newest = 5 - i
				}
				h.items[i] = fmt.Sprintf(`{"id":%q,"title":"t%d","execution_status":"running","updated_at":%q}`, hexID(i), i, at(10*round+newest))
			}
		})
		seen := listings()
		v.waitFor(t, "two more listings", func(*fleetView) bool { return listings() >= seen+2 }, &h.listed)
	}
	h.state(func(h *hostile) {
		if h.opened != 3 || h.peak > 3 {
			t.Errorf("%d sockets opened (%d at once) while the runs only moved their updated_at, want the first 3", h.opened, h.peak)
		}
	})
	// One of the others is paused, then runs again: a new run displaces a stream.
	for _, status := range []string{model.StatusPaused, model.StatusRunning} {
		h.state(func(h *hostile) {
			h.items[5] = fmt.Sprintf(`{"id":%q,"title":"t5","execution_status":%q,"updated_at":%q}`, hexID(5), status, at(60))
		})
		seen := listings()
		v.waitFor(t, "two more listings", func(*fleetView) bool { return listings() >= seen+2 }, &h.listed)
	}
	v.waitFor(t, "the new run streamed, one stream displaced", func(v *fleetView) bool {
		if lastConn(v.conv(hexID(5))).Phase != model.PhaseLive {
			return false
		}
		displaced := 0
		for _, id := range first {
			if lastConn(v.conv(id)).Phase == model.PhaseListed {
				displaced++
			}
		}
		return displaced == 1
	})
	// The displaced socket closes as the new one opens: only one more
	// was opened.
	h.state(func(h *hostile) {
		if h.opened != 4 {
			t.Errorf("%d sockets opened in all, want the first 3 and the new run's", h.opened)
		}
	})
}

// TestHostileServerListingShowsPageByPage holds the second page of a
// listing of 250: the first page's 100 rows are handed on before it comes.
func TestHostileServerListingShowsPageByPage(t *testing.T) {
	h := newHostile(t)
	h.listAll(250, model.StatusFinished)
	h.gate = make(chan struct{})
	v, _ := watchFleet(t, Server(client(t, h.srv.URL, ""), fastServer))
	v.waitFor(t, "the first page's rows while the second is held", func(v *fleetView) bool { return v.conversations() == 100 })
	close(h.gate)
	v.waitFor(t, "every row", func(v *fleetView) bool { return v.conversations() == 250 })
}

// TestHostileServerEndlessPagesAreCut: a server inventing a page of new
// conversations for ever is cut at the cap, and the source says so, once.
func TestHostileServerEndlessPagesAreCut(t *testing.T) {
	h := newHostile(t)
	h.endless = true
	opts := fastServer
	opts.MaxListed = 1000
	v, _ := watchFleet(t, Server(client(t, h.srv.URL, ""), opts))
	v.waitFor(t, "the cut said", func(v *fleetView) bool { return len(sourceWarnings(v)) > 0 })
	h.state(func(h *hostile) { h.listings = 0 })
	v.waitFor(t, "two more listings", func(*fleetView) bool {
		n := 0
		h.state(func(h *hostile) { n = h.listings })
		return n >= 2
	}, &h.listed)
	v.mu.Lock()
	defer v.mu.Unlock()
	ws := sourceWarnings(v)
	if len(ws) != 1 || !strings.Contains(ws[0], "listing cut at 1000 conversations") || !strings.Contains(ws[0], "cap") {
		t.Errorf("warnings %q, want one saying the listing was cut at its cap", ws)
	}
	if n := v.conversations(); n != 1000 {
		t.Errorf("%d conversations, want the 1000 of the cap", n)
	}
	h.state(func(h *hostile) {
		if h.requests > 11*(h.listings+2) {
			t.Errorf("%d requests for %d listings: a listing is not bounded", h.requests, h.listings)
		}
	})
}

// TestHostileServerBadItemsAndOddIDs lists good conversations among a
// malformed item, nulls, ids ".", "..", "a/b", one with an escape
// sequence that cleaning would make another listed id, and one of 10 kB:
// the good ones are shown (and streamed: they run), the rest skipped with
// one warning counting them, and no route with a dot segment is asked.
func TestHostileServerBadItemsAndOddIDs(t *testing.T) {
	h := newHostile(t)
	h.list([2]string{hexID(1), model.StatusRunning}, [2]string{hexID(2), model.StatusRunning}, [2]string{"abcd", model.StatusFinished})
	h.mu.Lock()
	h.items = append(h.items, `{"id":5,"execution_status":7}`, `null`, `{"id":"..","execution_status":"running"}`,
		`{"id":".","execution_status":"running"}`, `{"id":"a/b","execution_status":"running"}`,
		`{"id":"ab\u001b[31mcd","execution_status":"running"}`, `[1,2]`,
		fmt.Sprintf(`{"id":%q,"execution_status":"running"}`, strings.Repeat("f", 10_000)),
		fmt.Sprintf(`{"id":%q,"title":%q,"execution_status":"finished"}`, hexID(3), strings.Repeat("long title ", 100_000)))
	h.mu.Unlock()
	v, _ := watchFleet(t, Server(client(t, h.srv.URL, ""), fastServer))
	v.waitFor(t, "the good ones streamed and the warning", func(v *fleetView) bool {
		return lastConn(v.conv(hexID(1))).Phase == model.PhaseLive && lastConn(v.conv(hexID(2))).Phase == model.PhaseLive &&
			len(sourceWarnings(v)) > 0
	})
	v.mu.Lock()
	if n := v.conversations(); n != 4 {
		t.Errorf("%d conversations, want the 4 good ones", n)
	}
	if m := v.conv(hexID(3)).metas; len(m) == 0 || len(m[0].Title) > 600 {
		t.Errorf("a listed title of 1.1 MB kept whole")
	}
	ws := sourceWarnings(v)
	if len(ws) != 1 || !strings.Contains(ws[0], "skipped 7 conversations") {
		t.Errorf("warnings %q, want one counting the 7 bad items", ws)
	}
	v.mu.Unlock()
	h.state(func(h *hostile) {
		for _, p := range h.paths {
			for seg := range strings.SplitSeq(p, "/") {
				if seg == "." || seg == ".." || strings.Contains(seg, "%1B") || strings.Contains(seg, "%2F") {
					t.Errorf("asked %s", p)
				}
			}
		}
	})
	v.mu.Lock()
	raw, _ := json.Marshal(sourceWarnings(v))
	v.mu.Unlock()
	if strings.Contains(string(raw), `\u001b`) {
		t.Errorf("a warning carries an escape: %s", raw)
	}
}

// TestHostileServerKeyEchoesRedacted: a listing refused with a body that
// echoes the session key base64-encoded (inside "Bearer KEY", both
// alphabets), in hex of either case and reversed never shows any of it in
// what the source reports.
func TestHostileServerKeyEchoesRedacted(t *testing.T) {
	const key = "sk-oh-9f8e7d6c5b4a39281706f5e4d3c2b1a0"
	echoes := []string{
		base64.StdEncoding.EncodeToString([]byte("Bearer " + key)),
		base64.RawURLEncoding.EncodeToString([]byte("x" + key)),
		hex.EncodeToString([]byte(key)),
		strings.ToUpper(hex.EncodeToString([]byte(key))),
		reverse(key),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		fmt.Fprintf(w, `{"detail":"upstream said %s"}`, strings.Join(echoes, " | "))
	}))
	t.Cleanup(srv.Close)
	v, _ := watchFleet(t, Server(client(t, srv.URL, key), fastServer))
	v.waitFor(t, "the failure reported", func(v *fleetView) bool {
		c := v.convs[model.ConversationRef{Source: srv.URL, Kind: model.SourceServer}]
		return c != nil && len(c.conns) > 0 && strings.Contains(c.conns[0].Reason, "upstream said")
	})
	v.mu.Lock()
	defer v.mu.Unlock()
	reason := v.convs[model.ConversationRef{Source: srv.URL, Kind: model.SourceServer}].conns[0].Reason
	for _, e := range echoes {
		for i := 0; i+16 <= len(e); i++ {
			if strings.Contains(strings.ToLower(reason), strings.ToLower(e[i:i+16])) {
				t.Fatalf("%q of an echo left in %q", e[i:i+16], reason)
			}
		}
	}
}

func reverse(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

// TestServerStreamAllReadsEverySettledConversationOnce: with StreamAll
// (traces need every conversation's events), 12 finished conversations
// under a limit of 3 streams are each streamed until live, then rest on
// their listing, freeing the stream for the next: every one's events
// arrive.
func TestServerStreamAllReadsEverySettledConversationOnce(t *testing.T) {
	h := newHostile(t)
	h.listAll(12, model.StatusFinished)
	opts := fastServer
	opts.MaxStreams, opts.StreamAll = 3, true
	v, _ := watchFleet(t, Server(client(t, h.srv.URL, ""), opts))
	v.waitFor(t, "every conversation streamed, then at rest", func(v *fleetView) bool {
		for i := range 12 {
			c := v.conv(hexID(i))
			if c == nil || len(c.ids) == 0 || lastConn(c).Phase != model.PhaseListed {
				return false
			}
		}
		return true
	})
	h.state(func(h *hostile) {
		if len(h.streamed) != 12 {
			t.Errorf("%d streamed, want 12", len(h.streamed))
		}
	})
}
