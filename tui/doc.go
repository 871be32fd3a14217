// Package tui is ohwatch's terminal interface: the router and what every
// screen shares. The root Model is a router over a back-stack of screens
// (Screen): it draws the top one and gives it the keys, tells every screen
// the window size and the terminal's colour and mode reports, and
// delivers each message addressed to a screen (Addr: the results of that
// screen's own commands) to it even while it is hidden. Screens move the
// stack with Push, Pop (q: back, quitting at the root) and Back (esc).
//
// The screens live in packages of their own and talk to the router only
// through the exported contract below: tui/conversation (one
// conversation), tui/fleetview (the fleet table, which opens
// conversations and compares) and tui/compareview (two runs side by
// side). tui imports none of them; it holds what they share: key maps,
// colours, formatting, the key reference (HelpPager, and Help, the
// dialog every screen opens on its overlay) and Common, what a view hands
// on to the views it opens. RunScreens shows any root screen.
//
// # In detail
//
//	tea.Program ─> tui.Model (router, *pointer*)        screens, each a pointer changed in place
//	               ├─ stack: [root, …, top]  ─────────> Screen: Init, Update(msg) tea.Cmd, View() string,
//	               │   keys, mouse, paste ─> top           SetSize(w, h), ShortHelp/FullHelp (help.KeyMap)
//	               ├─ alive: id ─> screen    ─────────> conversation.Conversation: log, feed, cursor, panes, caches
//	               │   addressed messages ─> their screen, on top or not (a hidden view keeps ingesting)
//	               └─ size, colour profile, background, mode reports ─> every screen
//	                   the width model (text.Cells, from the mode 2027 report) ─> every screen, each pushed
//
// The router asks a screen for what it can do through capabilities:
// `Rooted` (`SetAtRoot`), `Addressable` (`ScreenID`), `Resizable`
// (`Resized`), `Releasable` (`Release`), `Measured` (`SetCells`),
// `Crumbed` (`Crumb`), `Trailed` (`SetTrail`). Every screen embeds a
// `Base` (`NewBase`): its id, `Addr()` and `SetAtRoot`/`AtRoot`. A
// command's result message embeds `Addr`, so the router hands it to the
// screen that asked even while another is on top or after it was popped
// (a fork's view left with `esc` keeps draining its feed); a message for
// a released screen is dropped.
//
// A screen moves the stack with the commands `Push(screen)`, `Pop()`
// (back one screen; at the root the program quits: `q`) and `Back()`
// (back one screen; nothing at the root: `esc`). A screen pushed for the
// first time is sized and initialised; one pushed again is shown as it
// was. A `Releasable` screen is released when it is popped (a
// conversation opened from the fleet table: its session's context is
// cancelled, which ends its feed, and the router forgets it, so its log,
// feed and caches are garbage).
//
// `RunScreens(ctx, root)` shows any root screen and `RunModel` a router
// already built. A run ends the same way whatever its root: `q` at the
// root → nil, `ctrl+c` → `ErrInterrupted` (130), a live root that never
// connected → `ErrUnreachable` (the router asks its root screen).
//
// Styles follow the reported colour profile and background. Text is
// measured with the terminal's width model (wcwidth, or grapheme
// clusters after mode 2027): a `text.Cells` value the router keeps from
// the terminal's report and tells every screen (`Measured`: those it
// keeps and each it pushes), which a screen keeps in its `Common` and
// hands to the panes it draws; never a setting of the process.
//
// `Common` is what every screen holds and hands on, whole, to the views
// it opens: the key maps, NO_COLOR, the theme, the colour profile, the
// width model, the clock (`Now`, nil for `time.Now`; `Clock` reads it),
// the pager, the editor, notifications and the editor's file opener. Every key a screen answers
// is a binding of its key map (`KeyMap`, `FleetKeyMap`, `CompareKeyMap`,
// matched with `key.Matches`; no handler compares key names); bindings
// that do not apply now are disabled in the active map, which is what the
// help bar shows, and the help screen and docs/keys.md list every binding
// (`keydoc.go`, `keytable.go`).
//
// It imports `format`, `theme`, `tui/text`, `tui/dialog`, `internal/sanitize`;
// no screen.
package tui
