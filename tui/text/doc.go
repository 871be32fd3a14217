// Package text measures and shapes text for a terminal under its width
// model: how many cells a grapheme cluster takes. The model is a value
// (Cells), not a setting of the process: each screen holds the one its
// terminal reported and hands it to what it draws, so screens, and tests,
// under different models draw side by side.
//
// # In detail
//
// `Cells` counts per codepoint (the renderer's default and the zero
// value) or by grapheme cluster (`Graphemes()`, once the terminal reports
// mode 2027). With it: a string's width, cutting with a tail (from the
// right or the left), fitting a line or a block to exactly w×h cells,
// padding a column, wrapping styled lines between words without splitting
// a cluster or leaving a style open. `Markdown` renders markdown with
// glamour, a renderer kept per width and style; text without a table is
// wrapped here between words, list items under their first word.
//
// It imports glamour and `x/ansi`; nothing of `tui`.
package text
