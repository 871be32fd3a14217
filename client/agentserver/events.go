package agentserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"

	"ohwatch/model"
)

// eventQuery narrows an event search. Since and Until, when set, are passed
// as timestamp__gte and timestamp__lt (ISO timestamps in the server's own
// form).
type eventQuery struct {
	Since, Until string
	// Newest first: the server's TIMESTAMP_DESC order.
	NewestFirst bool
}

// Events returns a conversation's whole event history in the server's
// on-disk order (the authoritative order), following every page of
// /api/conversations/{id}/events/search. Events repeated across pages are
// returned once.
func (c *Client) Events(ctx context.Context, id string) ([]model.Event, error) {
	var out []model.Event
	err := c.eachEventPage(ctx, id, eventQuery{}, func(evs []model.Event) error {
		out = append(out, evs...)
		return nil
	})
	return out, err
}

// eachEventPage pages through an event search, handing each page's decoded
// events to fn as soon as it arrives, so a long history can be shown while
// the rest loads. Items that are not JSON objects are skipped (the server
// never sends them; a proxy error page might).
func (c *Client) eachEventPage(ctx context.Context, id string, eq eventQuery, fn func([]model.Event) error) error {
	route := conversationRoute(id, "/events/search")
	q := url.Values{}
	if eq.Since != "" {
		q.Set("timestamp__gte", eq.Since)
	}
	if eq.Until != "" {
		q.Set("timestamp__lt", eq.Until)
	}
	if eq.NewestFirst {
		q.Set("sort_order", "TIMESTAMP_DESC")
	}
	seen := map[string]bool{}
	return c.eachPage(ctx, route, q, func(items []json.RawMessage) (int, error) {
		evs := make([]model.Event, 0, len(items))
		for _, raw := range items {
			if isJSONNull(raw) {
				continue
			}
			ev, err := c.decodeEvent(raw)
			if err != nil {
				c.log.Warn("skipping an event that is not a JSON object", "route", route, "error", redactKey(err.Error(), c.key))
				continue
			}
			if ev.ID != "" {
				if seen[ev.ID] {
					continue
				}
				seen[ev.ID] = true
			}
			evs = append(evs, ev)
		}
		if err := fn(evs); err != nil {
			return len(evs), fmt.Errorf("GET %s: %w", route, err)
		}
		return len(evs), nil
	})
}

// decodeEvent decodes one event the server sent, with the session key cut
// out of it first wherever it was echoed (redact.JSON): an agent that
// prints its environment echoes the key into an observation, and the
// event's bytes go on to the screen, the search and a recording.
func (c *Client) decodeEvent(raw []byte) (model.Event, error) {
	return model.Decode(c.secrets.RedactJSON(raw))
}
