// Package gen generates realistic OpenHands conversations: the exact JSON an
// agent-server persists and streams, deterministic for a seed, at any size
// from a handful of events to millions. Tests and benchmarks across the
// project use it for data at scale, and the bundled demo is scripted with
// its Builder, the one place that writes event JSON.
//
// # In detail
//
// The deterministic conversation generator, whose one event builder the
// bundled demo conversation is written with.
//
// Navigations (`Branches`) and a conversations root with forks of the
// conversation in upstream's fork layout (`WriteRoot`: a scouting run of the
// same seed finds the fork point and its branch, a second copies that branch
// and turns into the fork).
//
// It imports `model`.
package gen
