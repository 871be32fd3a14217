// Package conversation is the screen of one conversation: it owns its
// log, feed, cursor, panes (header, event list, timeline, metrics, tasks,
// pending, scrubber, inspector, help) and their caches. Every pane shows
// the conversation as of the cursor; the conversation state itself comes
// from the reducer, and the view keeps only view state (cursor, focus,
// filters). Each pane is a Pane (SetSize, View, ShortHelp) built for a
// frame from the state and the view settings it draws, never from the
// whole view. Every key is matched against the KeyMap. Work that takes
// longer than a frame runs in commands whose results come back as
// messages addressed to the view (tui.Addr): the inspector's view of an
// event and its markdown, a search, the Links' listing, a fork
// (Branching), an export. A fork's view compares with its parent on the
// compare screen (tui/compareview). Run shows one conversation.
//
// # In detail
//
// `NewConversation(opts)` is the view; `New` builds the router with it at
// its root and `Run(ctx, opts)` shows it. The commands it starts (its
// feed's wait, search chunks, play and reconnect ticks, answers, export,
// clipboard and pager results, flash expiry) send messages that carry
// its id (`tui.Addr`), so the router hands each to it even while another
// screen is on top. The view holds a `tui.Common` (from
// `Options.Common`, or handed on whole by `NewConversationWith` when
// another view opens it) and hands it on to the views it opens.
//
// The search (`finder`), the narrowing (`narrower`), the jump
// (`jumper`) and the replay (`player`) are models of their own, each
// owning its state, keys and commands; the view hands them the log, the
// cursor and its address and carries out the outcome they return (find.go).
//
// Each pane (header, banners, event list, inspector, timeline, metrics,
// tasks, pending, summary strip, scrubber, footer)
// keeps one contract, `Pane`: `SetSize(w, h)`, `View()` (exactly w×h
// cells), `ShortHelp()` (the keys it answers while it has focus; the
// footer's help bar, a bubbles `help` key map, shows the focused pane's).
// A pane is built for each frame by the view (`headerOf`, `listOf`,
// `scrubberOf`, …) from the derived state and the view settings it draws,
// so what a pane is given is all it can show; the caches it may use (the
// list's rows, the scrubber's cells) are handed to it by pointer. Side
// panes wrap at spaces; a figure and its label or unit are glued with
// non-breaking spaces (`glue`), drawn as plain spaces, so a metrics row
// breaks between figures, never inside one.
//
// The key reference (`?`, a `tui.Help`), the kind picker (`f`,
// picker.go) and the warnings list (`W`, warnings.go) are dialogs
// (tui/dialog) on the view's overlay: each owns its state and keys, and
// hands what it did back in a message (`dialogAnswer`: a filter picked,
// a warning chosen, where a list was left); the view tells them what
// changed under them (`fitDialogs`). They are drawn in the list's place,
// the help over the whole body in the compact layout.
//
// The inspector's view of an event (its typed payload, the JSON tree, the
// markdown of a message, rendered by glamour with one renderer kept per
// width and palette, `text.Markdown`) is built in a command when it opens,
// "rendering…" until it comes; a build for an event or width no longer
// shown is dropped, never built in Update or View. An action's result is
// the log's (`reducer.Log.ResultOf`), read in that command. The inspector
// is a dialog on the view's overlay (`tui/dialog`): it owns its state, keys
// and commands (`inspector*.go`), is told what it reads of the screen
// before each message and frame (`inspectEnv`), never the view itself, and
// passes the keys it does not use to the list, whose cursor moves it. It
// and the help are overlays that `esc` and `q` close. Inside the inspector
// the search (`inspector_search.go`) finds the lines that hold the query
// once per width, mode and fold change, highlights them and walks them
// with `n`/`N`; the rows matched only in their raw JSON are marked from
// the search's own result, never matched again in View. The pager (`o`,
// `pager.go`) shows the inspector's view as plain text at the inspector's
// width, built in a command; the zoom (`Z`, `zoom.go`) gives the focused
// pane or the inspector the whole body.
//
// The narrowing (`|`, `narrow.go`) reads the log first as a chain of
// commands, as a search does, each event read once; afterwards only a
// batch's new events are read in Update.
//
// Fork (`b`) and navigate (`H`) go through `Branching`, which `session`
// supplies for a live agent-server: the fork opens as a pushed view,
// prepared off the UI and released on `esc`, which ends its watch. On a
// tree the list shows one branch (`Log.Path`), HEAD's unless `B` picked
// another. `Links` (the conversations forked or launched from an event:
// `session` supplies them from a local root's `meta.json`s or an
// agent-server's search) are read by `Refresh` and `Children` in a command
// when the view opens, every 5 s and after a fork, and carried to the view
// in the refresh's message; `O` opens one as a pushed view released on
// `esc`. `D` in a fork's view opens the compare screen against its parent
// through `Parented` links.
//
// The controls (`steer.go`: `p` `R` `I` `M` `C`) go through `Steering`,
// which `session` supplies as `Controls` bound to one conversation. The
// guards (`guards.go`: the header's armed guards, a trip's banner;
// `guardprompt.go`: `L` lists them and replaces the rules, the new `Set`
// caught up on the log and handed on with `guard.TakeOver`).
//
// The prompt line (`promptdialog.go`: search, jump, narrowing, export,
// guards, fork, the questions, the controls' prompts, the message field,
// the answer) is a `tui/dialog.Dialog` on the view's overlay, drawn in the
// footer's place. It owns its kind, its text and its place in the search
// history, reads every key while it is on top (`ctrl+c` cancels it), and
// says what happened through messages (edited, submitted, cancelled) that
// the view answers in the key's own update.
//
// The mouse (`mouse.go`) scrolls what is under the pointer and selects a
// clicked row; it is not answered while a question, the filter line or
// the help is open. Every key the view answers is matched against a
// binding of `tui.KeyMap`: moving, the overlays' keys, the prompts'
// (`enter` keeps, `esc`/`ctrl+c` cancel, `y` confirms, `m`/`j`/`l` pick an
// export format), the picker's, `ctrl+c` (`Interrupt`); a test walks the
// KeyMap's fields and presses every key a terminal sends in every place.
//
// It imports `tui`, `tui/compareview`, `tui/text`, `model`, `reducer`,
// `guard`, `theme`, `format`, `internal/arena`, `internal/redact`,
// `internal/sanitize`.
package conversation
