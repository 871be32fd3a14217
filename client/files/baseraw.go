package files

import (
	"errors"
	"io/fs"

	"ohwatch/model"
)

// BaseStateRaw reads the base_state.json of the conversation at path
// whole (within a zip entry's bound) and decodes it keeping its bytes
// (model.BaseState.Raw): for a server that serves the recording's base
// state back as it was, field for field. Open streams it instead and keeps
// none of its bytes. A conversation without one gives (nil, nil).
func BaseStateRaw(path string) (*model.BaseState, error) {
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if r.readWhole == nil {
		return nil, nil
	}
	raw, err := r.readWhole("base_state.json")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return model.DecodeBaseState(raw)
}
