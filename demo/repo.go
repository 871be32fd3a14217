package demo

import "strings"

// The repository the demo agent fixes: ttlcache, a small generic LRU cache
// with per-entry expiry. As checked out, it evicts the most recently
// inserted entry instead of the least recently used one, and Get does not
// refresh recency; it is also not safe for concurrent use.

const workDir = "/workspace/project/ttlcache"

const (
	cachePath     = workDir + "/cache.go"
	cacheTestPath = workDir + "/cache_test.go"
	evictTestPath = workDir + "/eviction_test.go"
	readmePath    = workDir + "/README.md"
)

const cacheGo = `// Package ttlcache is a small in-memory LRU cache whose entries expire
// after a fixed time to live.
package ttlcache

import (
	"container/list"
	"time"
)

// Cache is a fixed-capacity LRU cache with per-entry expiry.
type Cache[K comparable, V any] struct {
	capacity int
	ttl      time.Duration
	now      func() time.Time
	ll       *list.List // front = most recently used
	items    map[K]*list.Element
	stats    Stats
}

type entry[K comparable, V any] struct {
	key     K
	value   V
	expires time.Time
}

// Stats counts cache outcomes.
type Stats struct {
	Hits, Misses, Evictions uint64
}

// New returns a cache holding at most capacity entries for ttl each.
func New[K comparable, V any](capacity int, ttl time.Duration) *Cache[K, V] {
	return &Cache[K, V]{
		capacity: capacity,
		ttl:      ttl,
		now:      time.Now,
		ll:       list.New(),
		items:    make(map[K]*list.Element, capacity),
	}
}

// Get returns the value for key if it is present and not expired.
func (c *Cache[K, V]) Get(key K) (V, bool) {
	var zero V
	el, ok := c.items[key]
	if !ok {
		c.stats.Misses++
		return zero, false
	}
	e := el.Value.(*entry[K, V])
	if c.now().After(e.expires) {
		c.removeElement(el)
		c.stats.Misses++
		return zero, false
	}
	c.stats.Hits++
	return e.value, true
}

// Set stores value under key, evicting the least recently used entry when
// the cache is full.
func (c *Cache[K, V]) Set(key K, value V) {
	if el, ok := c.items[key]; ok {
		e := el.Value.(*entry[K, V])
		e.value = value
		e.expires = c.now().Add(c.ttl)
		c.ll.MoveToFront(el)
		return
	}
	if c.ll.Len() >= c.capacity {
		c.evict()
	}
	el := c.ll.PushFront(&entry[K, V]{key: key, value: value, expires: c.now().Add(c.ttl)})
	c.items[key] = el
}

// evict removes the least recently used entry.
func (c *Cache[K, V]) evict() {
	el := c.ll.Front()
	if el != nil {
		c.removeElement(el)
		c.stats.Evictions++
	}
}

func (c *Cache[K, V]) removeElement(el *list.Element) {
	c.ll.Remove(el)
	delete(c.items, el.Value.(*entry[K, V]).key)
}

// Len reports the number of entries, including expired ones not yet removed.
func (c *Cache[K, V]) Len() int { return c.ll.Len() }

// Stats returns a snapshot of the counters.
func (c *Cache[K, V]) Stats() Stats { return c.stats }
`

const cacheTestGo = `package ttlcache

import (
	"testing"
	"time"
)

type fakeClock struct{ t time.Time }

func (f *fakeClock) now() time.Time          { return f.t }
func (f *fakeClock) advance(d time.Duration) { f.t = f.t.Add(d) }

func newTestCache(capacity int, ttl time.Duration) (*Cache[string, int], *fakeClock) {
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	c := New[string, int](capacity, ttl)
	c.now = clock.now
	return c, clock
}

func TestGetSet(t *testing.T) {
	c, _ := newTestCache(2, time.Minute)
	c.Set("a", 1)
	if v, ok := c.Get("a"); !ok || v != 1 {
		t.Fatalf("Get(a) = %d, %v; want 1, true", v, ok)
	}
	if _, ok := c.Get("missing"); ok {
		t.Fatal("Get(missing) hit")
	}
}

func TestExpiry(t *testing.T) {
	c, clock := newTestCache(2, time.Minute)
	c.Set("a", 1)
	clock.advance(2 * time.Minute)
	if _, ok := c.Get("a"); ok {
		t.Fatal("expired entry returned")
	}
	if c.Len() != 0 {
		t.Fatalf("Len = %d after expiry, want 0", c.Len())
	}
}

func TestSetRefreshesTTL(t *testing.T) {
	c, clock := newTestCache(2, time.Minute)
	c.Set("a", 1)
	clock.advance(50 * time.Second)
	c.Set("a", 2)
	clock.advance(50 * time.Second)
	if v, ok := c.Get("a"); !ok || v != 2 {
		t.Fatalf("Get(a) = %d, %v; want 2, true", v, ok)
	}
}
`

const evictionTestGo = `package ttlcache

import (
	"testing"
	"time"
)

// TestEvictsOldestWithoutReads fills the cache past capacity: the entry
// written first must be the one evicted.
func TestEvictsOldestWithoutReads(t *testing.T) {
	c, _ := newTestCache(3, time.Minute)
	for i, k := range []string{"a", "b", "c", "d"} {
		c.Set(k, i)
	}
	if _, ok := c.Get("a"); ok {
		t.Errorf("Get(%q) = hit, want miss: a was the least recently used entry", "a")
	}
	if _, ok := c.Get("c"); !ok {
		t.Errorf("Get(%q) = miss, want hit: c was written after a", "c")
	}
}

// TestGetRefreshesRecency reads the oldest entry before the cache fills:
// the read makes it recent, so the next oldest is evicted instead.
func TestGetRefreshesRecency(t *testing.T) {
	c, _ := newTestCache(3, time.Minute)
	c.Set("a", 1)
	c.Set("b", 2)
	c.Set("c", 3)
	c.Get("a")
	c.Set("d", 4)
	if _, ok := c.Get("a"); !ok {
		t.Errorf("Get(%q) = miss, want hit: a was read after b was written", "a")
	}
	if _, ok := c.Get("b"); ok {
		t.Errorf("Get(%q) = hit, want miss: b was the least recently used entry", "b")
	}
}
`

const concurrentTest = `

// TestConcurrentUse hammers one cache from several goroutines; run it with
// -race.
func TestConcurrentUse(t *testing.T) {
	c, _ := newTestCache(64, time.Minute)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 1000; i++ {
				k := strconv.Itoa((g*31 + i) % 100)
				c.Set(k, i)
				c.Get(k)
			}
		}(g)
	}
	wg.Wait()
	if n := c.Len(); n > 64 {
		t.Fatalf("Len = %d, want at most 64", n)
	}
}
`

const readmeMD = "# ttlcache\n\nA small generic LRU cache with per-entry expiry.\n\n```go\nc := ttlcache.New[string, []byte](10_000, 5*time.Minute)\nc.Set(\"user:42\", payload)\nif v, ok := c.Get(\"user:42\"); ok {\n\t// ...\n}\n```\n\nEntries expire `ttl` after they were last written. When the cache is full,\nthe least recently used entry is evicted.\n"

const hitRatePath = workDir + "/hitrate_test.go"

const hitRateTestGo = `package ttlcache

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestHitRateZipf replays a production-like workload (a few hot keys, a
// long tail) through a cache a hundredth of the key space: an LRU must keep
// the hot keys and hit most of the time.
func TestHitRateZipf(t *testing.T) {
	c := New[uint64, int](1000, time.Hour)
	z := rand.NewZipf(rand.New(rand.NewPCG(1, 2)), 1.1, 1, 100_000)
	for i := 0; i < 200_000; i++ {
		k := z.Uint64()
		if _, ok := c.Get(k); !ok {
			c.Set(k, i)
		}
	}
	st := c.Stats()
	rate := float64(st.Hits) / float64(st.Hits+st.Misses)
	t.Logf("hits=%d misses=%d evictions=%d hit rate %.1f%%", st.Hits, st.Misses, st.Evictions, 100*rate)
	if rate < 0.5 {
		t.Fatalf("hit rate %.1f%%, want at least 50%%", 100*rate)
	}
}
`

// The Peek method main gained while the branch was open, and the Delete
// method of the branch: a rebase puts them in conflict.
const peekMain = `// Peek returns the value for key without updating recency or counters.
func (c *Cache[K, V]) Peek(key K) (V, bool) {
	var zero V
	el, ok := c.items[key]
	if !ok || c.now().After(el.Value.(*entry[K, V]).expires) {
		return zero, false
	}
	return el.Value.(*entry[K, V]).value, true
}
`

const peekLocked = `// Peek returns the value for key without updating recency or counters.
func (c *Cache[K, V]) Peek(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var zero V
	el, ok := c.items[key]
	if !ok || c.now().After(el.Value.(*entry[K, V]).expires) {
		return zero, false
	}
	return el.Value.(*entry[K, V]).value, true
}
`

const deleteMethod = `// Delete removes key if it is present and reports whether it was.
func (c *Cache[K, V]) Delete(key K) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if ok {
		c.removeElement(el)
	}
	return ok
}
`

// conflictBlock is what git leaves in cache.go where both sides added a
// method before evict.
func conflictBlock() string {
	return "<<<<<<< HEAD\n" + peekMain + "=======\n" + deleteMethod +
		">>>>>>> 4e2d7b1 (cache: evict the least recently used entry and lock for concurrent use)\n"
}

// conflicted is cache.go as the rebase leaves it: the branch's Delete in
// conflict with main's Peek.
func conflicted(branch string) string {
	return strings.Replace(branch, deleteMethod, conflictBlock(), 1)
}
