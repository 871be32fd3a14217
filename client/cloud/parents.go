package cloud

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"

	"ohwatch/model"
)

// The 2025-11 app server loses a sub-conversation's parent: its listing
// says parent_conversation_id null, because the webhook's update of the
// conversation rewrites the row without it. The start task that started
// the conversation keeps the request, parent and all
// (GET /api/v1/app-conversations/start-tasks/search), so the link is read
// from there: it is what the conversation was started as, never a guess.

// taskParent is the part of AppConversationStartTask the parent link needs.
type taskParent struct {
	AppConversationID *string `json:"app_conversation_id"`
	Request           struct {
		ParentID *string `json:"parent_conversation_id"`
	} `json:"request"`
}

// fillParents gives each listed conversation without a parent the one its
// start task names. The start tasks are searched only when a conversation
// not seen before lacks a parent, and what they said is kept, so a
// re-listing asks again only for new conversations. A server without the
// search leaves the parents as listed; one whose search fails is asked
// again at the next listing.
func (s *Session) fillParents(ctx context.Context, convs []Conversation) {
	s.parentsMu.Lock()
	defer s.parentsMu.Unlock()
	if s.parents == nil {
		s.parents = map[string]string{}
	}
	need := false
	for i := range convs {
		if _, known := s.parents[convs[i].ID]; convs[i].ParentID == "" && !known {
			need = true
			break
		}
	}
	if need {
		found := map[string]string{}
		err := s.eachPage(ctx, "/api/v1/app-conversations/start-tasks/search", url.Values{}, func(items []json.RawMessage) int {
			n := 0
			for _, raw := range items {
				var t taskParent
				if json.Unmarshal(raw, &t) != nil {
					continue
				}
				n++
				id := model.NormalizeConversationID(s.secrets.clean(str(t.AppConversationID)))
				parent := model.NormalizeConversationID(s.secrets.clean(str(t.Request.ParentID)))
				if isConversationID(id) && isConversationID(parent) {
					found[id] = parent
				}
			}
			return n
		})
		var apiErr *APIError
		if err != nil && !(errors.As(err, &apiErr) && apiErr.Status == http.StatusNotFound) {
			// Asked again at the next listing: the failure may pass.
			s.log.Debug("cloud start tasks not read", "err", err.Error())
			return
		}
		for i := range convs {
			s.parents[convs[i].ID] = found[convs[i].ID]
		}
	}
	for i := range convs {
		if convs[i].ParentID == "" {
			convs[i].ParentID = s.parents[convs[i].ID]
		}
	}
}
