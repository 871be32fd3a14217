package agentserver

import (
	"context"
	"errors"
	"hash/maphash"
	"net/url"
	"strconv"

	"ohwatch/model"
)

// DefaultMaxListed is how many conversations one listing takes at most:
// far more than a team keeps on one server, and a bound on a server that
// invents conversations on every page.
const DefaultMaxListed = 100_000

// Why a listing ended before the server's last page.
const (
	// CutNothingNew: a page brought no conversation not already listed
	// (a server whose paging repeats itself); what came is kept.
	CutNothingNew = "a page brought nothing new"
	// CutCap: the listing reached its cap on conversations.
	CutCap = "the cap on conversations per listing was reached"
	// CutPages: the pages never ended (each brought something new, in
	// pages too small to reach the cap).
	CutPages = "the server's pages never end"
	// CutRepeat: a page pointed back to one already read.
	CutRepeat = "the server's paging does not advance"
)

// ListOptions bounds one listing.
type ListOptions struct {
	// Archived includes the archived conversations of a server with
	// archives (archive_filter=ALL); by default it lists the active ones.
	Archived bool
	// MaxItems is the most conversations taken (DefaultMaxListed when 0).
	MaxItems int
	// Memo, when set, remembers this listing's items for the next one
	// given the same memo (see ListingMemo).
	Memo *ListingMemo
}

// ListingMemo remembers the items of the last whole listing as the server
// sent them, with what each decoded to, so the next listing decodes only
// the items that changed. A fleet lists every few seconds and almost all
// of a large account's items come back byte for byte: decoding 20,000 of
// them every 5 s made 80 MB of garbage and a tenth of the fleet's CPU.
// An item comes back as the very *ConversationInfo handed out before, so
// callers must not change what they are given. Not safe for concurrent
// listings.
//
// An item is known by a 128-bit hash of its bytes (two seeded maphashes),
// not by the bytes: a real item is 3 to 5 kB (its agent, its stats), and
// keeping them made a capped listing of 100,000 cost half a gigabyte. For
// the same reason the infos of a listing given a memo carry no raw bytes
// (Base.Raw is nil): a consumer of a memoized listing reads its fields.
//
// With Summarize set, an item keeps its stats summed (Usage) and not the
// stats themselves (Base.Stats nil): a map and a struct per LLM usage,
// with a list entry per call, were most of what 100,000 listed
// conversations kept.
type ListingMemo struct {
	// Summarize sums an item's stats (nil when they report no usage).
	Summarize func(*model.Stats) *model.ListedUsage

	prev, next map[memoKey]*ConversationInfo
	seeds      [2]maphash.Seed
	seeded     bool
}

// memoKey is an item's hash.
type memoKey [2]uint64

// key hashes raw with the memo's seeds, drawn on first use.
func (m *ListingMemo) key(raw []byte) memoKey {
	if !m.seeded {
		m.seeds, m.seeded = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, true
	}
	return memoKey{maphash.Bytes(m.seeds[0], raw), maphash.Bytes(m.seeds[1], raw)}
}

// lookup returns what raw decoded to in the last listing, carrying it
// into this one.
func (m *ListingMemo) lookup(raw []byte) (*ConversationInfo, bool) {
	if m == nil || len(raw) > memoMaxItem {
		return nil, false
	}
	k := m.key(raw)
	info, ok := m.prev[k]
	if ok {
		m.keep(k, info)
	}
	return info, ok
}

// memoMaxItem is the largest item a memo keeps: a real item is a few
// kilobytes, and what a hostile server's megabyte items decode to is
// decoded again each time rather than kept.
const memoMaxItem = 64 << 10

// remember keeps what raw decoded to for the next listing, without its
// raw bytes.
func (m *ListingMemo) remember(raw []byte, info *ConversationInfo) {
	if m != nil && len(raw) <= memoMaxItem {
		info.Base = info.Base.Detached()
		if m.Summarize != nil && info.Base != nil {
			info.Usage = m.Summarize(info.Base.Stats)
			info.Base.Stats = nil
		}
		m.keep(m.key(raw), info)
	}
}

func (m *ListingMemo) keep(k memoKey, info *ConversationInfo) {
	if m.next == nil {
		m.next = make(map[memoKey]*ConversationInfo, len(m.prev))
	}
	m.next[k] = info
}

// done ends a listing: a whole one replaces what is remembered; one that
// failed leaves it as it was.
func (m *ListingMemo) done(whole bool) {
	if m == nil {
		return
	}
	if whole {
		m.prev = m.next
	}
	m.next = nil
}

// Listing is how one listing went.
type Listing struct {
	// Items is the number of conversations taken; Pages the pages read.
	Items, Pages int
	// Skipped counts the items that were not a conversation (malformed,
	// or an id that is not one path segment); FirstSkip is the first
	// one's reason, redacted and on one line.
	Skipped   int
	FirstSkip string
	// Cut is why the listing ended before the server's last page ("" when
	// it did not: one of the Cut constants).
	Cut string
	// Archives is set when the server has archives (its items carry
	// archived_at); Archived is how many of its conversations are
	// archived and were not listed (ListOptions.Archived lists them), -1
	// when unknown.
	Archives bool
	Archived int
	// ListedArchived is set when the archived conversations were listed
	// too (ListOptions.Archived): Archived counts those listed.
	ListedArchived bool
}

// ListConversations lists the server's conversations page by page
// (/api/conversations/search, newest first), handing each page's new
// conversations to each as it arrives, so a consumer can show them before
// the last page is in. A malformed item is skipped and counted, not fatal:
// one bad conversation does not hide the others. The listing ends at the
// server's last page, at the first page that brings nothing new, at
// opts.MaxItems conversations, or after the pages that many conversations
// would fill twice over; Listing.Cut says which.
func (c *Client) ListConversations(ctx context.Context, opts ListOptions, each func([]*ConversationInfo)) (l Listing, err error) {
	defer func() { opts.Memo.done(err == nil) }()
	const route = "/api/conversations/search"
	maxItems := opts.MaxItems
	if maxItems <= 0 {
		maxItems = DefaultMaxListed
	}
	maxPages := min(c.maxPages, max(10, 2*maxItems/searchPageLimit))
	limit := searchPageLimit
	q := url.Values{"limit": {strconv.Itoa(limit)}}
	if opts.Archived {
		// A server without archives ignores the parameter.
		q.Set("archive_filter", "ALL")
		l.ListedArchived = true
	}
	defer func() {
		if err == nil && !opts.Archived {
			l.Archived = c.countArchived(ctx, l)
		}
	}()
	seenIDs := map[string]bool{}
	seenPages := map[string]bool{}
	for {
		if l.Pages >= maxPages {
			l.Cut = CutPages
			return l, nil
		}
		var p page
		err := c.getJSON(ctx, route, q, &p)
		if errors.Is(err, ErrTooLarge) && limit > 1 {
			limit = max(1, limit/4)
			q.Set("limit", strconv.Itoa(limit))
			continue
		}
		if err != nil {
			return l, err
		}
		l.Pages++
		var fresh []*ConversationInfo
		for _, raw := range p.Items {
			if l.Items+len(fresh) >= maxItems {
				l.Cut = CutCap
				break
			}
			if isJSONNull(raw) {
				continue
			}
			info, known := opts.Memo.lookup(raw)
			if !known {
				var err error
				info, err = c.decodeConversation(raw)
				if err == nil {
					err = model.CheckConversationID(info.ID)
				}
				if err != nil {
					if l.Skipped == 0 {
						l.FirstSkip = redactKey(err.Error(), c.key)
					}
					l.Skipped++
					continue
				}
				opts.Memo.remember(raw, info)
			}
			if seenIDs[info.ID] {
				continue
			}
			seenIDs[info.ID] = true
			fresh = append(fresh, info)
			l.Archives = l.Archives || info.HasArchive
			if opts.Archived && !info.ArchivedAt.IsZero() {
				l.Archived++
			}
		}
		l.Items += len(fresh)
		if len(fresh) > 0 {
			each(fresh)
		}
		if l.Cut != "" {
			return l, nil
		}
		if limit < searchPageLimit {
			limit = min(2*limit, searchPageLimit)
			q.Set("limit", strconv.Itoa(limit))
		}
		if p.NextPageID == nil || *p.NextPageID == "" {
			return l, nil
		}
		next := *p.NextPageID
		switch {
		case seenPages[next]:
			l.Cut = CutRepeat
		case len(fresh) == 0 && len(p.Items) > 0:
			l.Cut = CutNothingNew
		}
		if l.Cut != "" {
			return l, nil
		}
		seenPages[next] = true
		q.Set("page_id", next)
	}
}

// countArchived asks how many conversations are archived
// (count?archive_filter=ARCHIVED, SDK #4994), where the listing shows a
// server with archives, or listed nothing to tell by: an older server
// ignores the parameter and counts every conversation, which is 0 when it
// listed none. -1 when it cannot be told.
func (c *Client) countArchived(ctx context.Context, l Listing) int {
	if !l.Archives && l.Items > 0 {
		return -1
	}
	var n int
	if err := c.getJSON(ctx, "/api/conversations/count", url.Values{"archive_filter": {"ARCHIVED"}}, &n); err != nil || n < 0 {
		return -1
	}
	return n
}
