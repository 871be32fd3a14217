package model

import (
	"math/rand/v2"
	"testing"
)

// TestCallPrefixFindsEveryPrefix: whatever the calls (runs that spent
// nothing, so equal totals; a negative count, so unsorted ones), Calls
// finds what a search of the totals of every prefix finds, for every
// prefix's total and for totals no prefix has.
func TestCallPrefixFindsEveryPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, prefixStride - 1, prefixStride, prefixStride + 1, 5*prefixStride + 7, 1000} {
		for _, negative := range []bool{false, true} {
			m := &Metrics{}
			for k := range n {
				u := TokenUsage{}
				if rng.IntN(3) > 0 {
					u = TokenUsage{Prompt: rng.Int64N(3), Completion: rng.Int64N(2), CacheRead: rng.Int64N(2), Reasoning: rng.Int64N(2)}
				}
				if negative && k == n/2 {
					u.Prompt = -1
				}
				m.TokenUsages = append(m.TokenUsages, u)
			}
			p, ref := NewCallPrefix(m), newDensePrefix(m)
			if !negative && n >= prefixStride && (p.dense != nil || len(p.every) != n/prefixStride+1) {
				t.Fatalf("n=%d: %d kept totals, dense %v: not sparse", n, len(p.every), p.dense != nil)
			}
			var accs []TokenUsage
			for _, tot := range ref.dense {
				accs = append(accs, TokenUsage{Prompt: tot.Prompt, Completion: tot.Completion, CacheRead: tot.CacheRead, Reasoning: tot.Reasoning})
			}
			accs = append(accs, TokenUsage{Prompt: -5}, TokenUsage{Prompt: 1 << 40}, TokenUsage{Prompt: 3, Completion: 1 << 40})
			for _, acc := range accs {
				got, gotOK := p.Calls(acc)
				want, wantOK := ref.denseCalls(&acc)
				if got != want || gotOK != wantOK {
					t.Fatalf("n=%d negative=%v acc %+v: %d %v, want %d %v", n, negative, acc, got, gotOK, want, wantOK)
				}
			}
		}
	}
}
