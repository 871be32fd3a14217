package theme

// Palette names colours by what they mean, not by what they look like: a
// pane asks for "error" or "muted", and the palette decides the hue that
// reads well on the terminal's background. Signals keep their hue on every
// profile: errors red, finished green, waiting yellow, running cyan.
type Palette struct {
	Text      Color // ordinary text
	Muted     Color // secondary text: times, indices, hints
	Subtle    Color // rules and separators
	Accent    Color // titles, the focused pane, keys in help
	Selection Color // background of the selected row
	// OnSelection is the text of the selected row, which must read on
	// Selection as Text reads on the background.
	OnSelection Color
	OK          Color // finished, success, additions
	Info        Color // running, live
	Warn        Color // waiting, stuck, pinned, medium risk
	Error       Color // errors, high risk, deletions
	User        Color // user-sourced events
	Agent       Color // agent-sourced events
	Env         Color // environment- and hook-sourced events
}

// The 16-colour values are the same for both backgrounds: the terminal's
// palette already follows its theme.
const (
	ansiRed     = 1
	ansiGreen   = 2
	ansiYellow  = 3
	ansiBlue    = 4
	ansiMagenta = 5
	ansiCyan    = 6
	ansiGrey    = 8 // bright black
)

// Dark is the palette for terminals with a dark background.
func Dark() Palette {
	return Palette{
		Text:        Color{"#D7DAE0", 253, TermDefault},
		Muted:       Color{"#7F848E", 245, ansiGrey},
		Subtle:      Color{"#737986", 243, ansiGrey},
		Accent:      Color{"#61AFEF", 75, ansiBlue},
		Selection:   Color{"#2C3340", 236, TermDefault},
		OnSelection: Color{"#D7DAE0", 253, TermDefault},
		OK:          Color{"#98C379", 114, ansiGreen},
		Info:        Color{"#56B6C2", 73, ansiCyan},
		Warn:        Color{"#E5C07B", 179, ansiYellow},
		Error:       Color{"#E06C75", 167, ansiRed},
		User:        Color{"#C678DD", 176, ansiMagenta},
		Agent:       Color{"#61AFEF", 75, ansiBlue},
		Env:         Color{"#ABB2BF", 249, TermDefault},
	}
}

// Light is the palette for terminals with a light background.
func Light() Palette {
	return Palette{
		Text:        Color{"#383A42", 237, TermDefault},
		Muted:       Color{"#6F727C", 243, ansiGrey},
		Subtle:      Color{"#8A8D94", 245, ansiGrey},
		Accent:      Color{"#2F6FD0", 26, ansiBlue},
		Selection:   Color{"#2F6FD0", 26, TermDefault},
		OnSelection: Color{"#FFFFFF", 231, TermDefault},
		OK:          Color{"#3E8A2E", 28, ansiGreen},
		Info:        Color{"#0E7C86", 30, ansiCyan},
		Warn:        Color{"#9A6700", 136, ansiYellow},
		Error:       Color{"#C8283C", 160, ansiRed},
		User:        Color{"#A626A4", 127, ansiMagenta},
		Agent:       Color{"#2F6FD0", 26, ansiBlue},
		Env:         Color{"#5C6370", 241, TermDefault},
	}
}
