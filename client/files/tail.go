package files

import (
	"path/filepath"

	"ohwatch/model"
)

// Tail reads the last n event files of a conversation directory, oldest
// first, without reading the others: `ls` decides what base_state.json
// does not say from the end of a conversation, however long it is. total
// is the number of event files. Like List it is quiet: a file that cannot
// be read or decoded is left out (a load reports it).
func Tail(dir string, n int) (events []model.Event, total int) {
	eventsDir := filepath.Join(dir, eventsDirName)
	names, err := readNames(eventsDir)
	if err != nil {
		return nil, 0
	}
	files, _ := eventFiles(names)
	for _, f := range files[max(0, len(files)-n):] {
		if ev, ok := readEvent(eventsDir, f.Name); ok {
			events = append(events, ev)
		}
	}
	return events, len(files)
}
