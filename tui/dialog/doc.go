// Package dialog is the contract of an overlay: a part of a screen that
// opens over it (the key reference, a picker, a prompt, the inspector, a
// guard's question), reads the keys first while it is on top, draws over
// the area its screen gives it, and closes itself.
//
// A screen keeps its open dialogs in an [Overlay], a stack. The top dialog
// sees every key, mouse and paste message first; what it passes on
// ([Action].Pass) goes to the screen's own keys. Other messages (the
// results of a dialog's commands) go to the open dialogs from the top
// down until one takes them, so a dialog under another still gets what
// its commands return. A dialog owns its state, its keys and its
// commands; it changes its screen only through the Action it returns and
// the messages its commands send, never by reaching into it.
//
// Where a dialog is drawn is the screen's choice; a dialog that needs a
// particular place says so with [Placed] (a prompt sits in the footer,
// the key reference may take the whole body).
//
// The dialogs today: the key reference, one type for every screen
// (tui.Help, on the conversation, the fleet and the compare screen), the
// conversation's kind picker and warnings list, and the fleet's question
// about a paused sandbox (a Footer dialog).
package dialog
