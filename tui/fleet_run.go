package tui

import (
	"context"
	"os"

	tea "charm.land/bubbletea/v2"
)

// RunFleet shows the fleet table until the user quits or ctx is cancelled;
// it ends as Run does (ErrInterrupted for Ctrl-C). A non-empty NO_COLOR
// turns colours off.
func RunFleet(ctx context.Context, opts FleetOptions) error {
	return runFleet(ctx, opts, programColours(&opts.Profile)...)
}

// runFleet is RunFleet with extra program options (tests give it their
// input, output and size).
func runFleet(ctx context.Context, opts FleetOptions, extra ...tea.ProgramOption) error {
	if os.Getenv("NO_COLOR") != "" {
		opts.NoColor = true
	}
	p := tea.NewProgram(fleetProgram{NewFleet(opts)}, append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithoutSignalHandler()}, extra...)...)
	_, err := p.Run()
	return runError(ctx, err)
}

// fleetProgram runs the fleet table as a program of its own.
type fleetProgram struct{ f *Fleet }

func (p fleetProgram) Init() tea.Cmd { return p.f.Init() }

func (p fleetProgram) Update(msg tea.Msg) (tea.Model, tea.Cmd) { return p, p.f.Update(msg) }

func (p fleetProgram) View() tea.View {
	v := tea.NewView(p.f.View())
	v.AltScreen = true
	v.WindowTitle = "ohwatch fleet"
	return v
}
