// Package theme turns a small semantic palette into the one Styles struct the
// TUI draws with, so no pane picks its own colours and the whole screen
// follows the terminal's light or dark background, its colour profile, or
// NO_COLOR.
//
// # In detail
//
// Semantic palette → one `Styles`, glyphs, light/dark (`--theme`, dark when
// the terminal does not say), each colour spelled for truecolor, 256 and 16
// colours so signals never down-sample to grey, NO_COLOR (`Mono`: attributes
// without colour; `Plain`, no attributes, for a NoTTY profile and the
// goldens).
//
// It imports lipgloss, colorprofile.
package theme
