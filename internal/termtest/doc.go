// Package termtest runs a Bubble Tea program for a test on a terminal of
// its own (a buffer), and lets the test wait for text the program writes
// or for a condition on what its model holds. A wait wakes on each write
// and after each Update, never on a clock: the only clock is the bound
// after which a wait fails.
//
// # In detail
//
// Tests only: a Bubble Tea program on a buffer terminal, with waits for text
// it writes or a condition on its model that wake on each write and each
// Update (never a polling clock; the bound is only a failure limit).
//
// It imports —.
package termtest
