//go:build goexperiment.jsonv2

package model_test

import (
	jsonv2 "encoding/json/v2"

	"ohwatch/model"
)

func init() {
	decodeRivals["encoding-json-v2-minimal"] = func(raw []byte) (model.Event, error) {
		var ev minimalEvent
		err := jsonv2.Unmarshal(raw, &ev)
		return model.Event{ID: ev.ID, Kind: ev.Kind}, err
	}
}
