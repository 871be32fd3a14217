package dialog

import tea "charm.land/bubbletea/v2"

// Overlay is a screen's stack of open dialogs, the last opened on top.
// The zero value is empty and ready.
type Overlay struct {
	stack []Dialog
}

// Open puts d on top. A dialog of the same ID that is already open is
// replaced where it stands, so reopening one never stacks two.
func (o *Overlay) Open(d Dialog) {
	for i, open := range o.stack {
		if open.ID() == d.ID() {
			o.stack[i] = d
			return
		}
	}
	o.stack = append(o.stack, d)
}

// Close takes the dialog of this ID off the stack, wherever it stands; it
// reports whether one was open.
func (o *Overlay) Close(id string) bool {
	for i, open := range o.stack {
		if open.ID() == id {
			o.stack = append(o.stack[:i], o.stack[i+1:]...)
			return true
		}
	}
	return false
}

// Top is the dialog on top, or nil when none is open.
func (o *Overlay) Top() Dialog {
	if len(o.stack) == 0 {
		return nil
	}
	return o.stack[len(o.stack)-1]
}

// TopAt is the uppermost open dialog drawn at place p, or nil.
func (o *Overlay) TopAt(p Place) Dialog {
	for i := len(o.stack) - 1; i >= 0; i-- {
		if PlaceOf(o.stack[i]) == p {
			return o.stack[i]
		}
	}
	return nil
}

// Find is the open dialog of this ID, or nil.
func (o *Overlay) Find(id string) Dialog {
	for _, open := range o.stack {
		if open.ID() == id {
			return open
		}
	}
	return nil
}

// IsOpen reports whether a dialog of this ID is open.
func (o *Overlay) IsOpen(id string) bool { return o.Find(id) != nil }

// Len is how many dialogs are open.
func (o *Overlay) Len() int { return len(o.stack) }

// As is the uppermost open dialog of type T, if one is open: a screen
// reads its own dialogs' state through it without a type switch.
func As[T Dialog](o *Overlay) (T, bool) {
	for i := len(o.stack) - 1; i >= 0; i-- {
		if d, ok := o.stack[i].(T); ok {
			return d, true
		}
	}
	var zero T
	return zero, false
}

// Update gives msg to the dialogs and applies what they ask: input (keys,
// mouse, paste) to the top dialog alone, anything else to each open
// dialog from the top down until one takes it. It reports whether a
// dialog took the message; when none did, the screen answers it.
func (o *Overlay) Update(msg tea.Msg) (tea.Cmd, bool) {
	if isInput(msg) {
		top := o.Top()
		if top == nil {
			return nil, false
		}
		return o.apply(top, top.Update(msg))
	}
	for i := len(o.stack) - 1; i >= 0; i-- {
		d := o.stack[i]
		if cmd, took := o.apply(d, d.Update(msg)); took {
			return cmd, true
		}
	}
	return nil, false
}

// apply carries out what d asked after a message.
func (o *Overlay) apply(d Dialog, a Action) (tea.Cmd, bool) {
	if a.Pass {
		return nil, false
	}
	if a.Close {
		o.Close(d.ID())
	}
	return a.Cmd, true
}

// isInput reports whether msg is the user's: only the top dialog reads it.
func isInput(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.KeyReleaseMsg, tea.MouseMsg, tea.PasteMsg:
		return true
	}
	return false
}
