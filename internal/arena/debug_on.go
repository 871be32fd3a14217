//go:build arenadebug

package arena

// debugUnmap is true under -tags arenadebug: released blocks are unmapped
// at once, never pooled, so an alias that outlived its arena faults
// (SIGSEGV) where it is read instead of reading zeros or another log's
// events. Run the suite under it to find stale aliases.
const debugUnmap = true
