package cloud

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
)

// Lookup reads one conversation as the listing would show it
// (GET /api/v1/app-conversations?ids=), without starting or resuming its
// sandbox: a running one can then be watched (Live), a paused one read
// from what Cloud stored (StoredEvents). An unknown id is ErrNotFound.
func (s *Session) Lookup(ctx context.Context, id string) (Conversation, error) {
	var batch []*listedConversation
	if err := s.api.do(ctx, http.MethodGet, "/api/v1/app-conversations", url.Values{"ids": {id}}, nil, &batch); err != nil {
		return Conversation{}, err
	}
	if len(batch) == 0 || batch[0] == nil {
		return Conversation{}, fmt.Errorf("cloud: conversation %s: %w", s.secrets.clean(id), ErrNotFound)
	}
	c := s.conversationOf(batch[0])
	if c.ID == "" {
		return Conversation{}, fmt.Errorf("cloud: Cloud gave no usable id for conversation %s", s.secrets.clean(id))
	}
	return c, nil
}
