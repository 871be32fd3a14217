//go:build goexperiment.jsonv2

package headless

import (
	"encoding/json/jsontext"
	jsonv2 "encoding/json/v2"
)

func init() {
	eventLineRivals["encoding-json-v2"] = func(l eventLine) ([]byte, error) {
		return jsonv2.Marshal(l, jsontext.EscapeForHTML(true))
	}
}
