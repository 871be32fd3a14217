package cli

import (
	"fmt"
	"net/url"
	"strings"
)

// conversationURLHint names the URL forms that name a conversation.
const conversationURLHint = "name the conversation: http://HOST:PORT/api/conversations/ID (or http://HOST:PORT#ID)"

// splitConversationURL reads an agent-server URL that may name one of its
// conversations, as compare and watch take it: http://HOST:PORT/api/
// conversations/ID, http://HOST:PORT#ID, or the server alone (id "").
// base is the server's URL, checked, without the conversation.
func splitConversationURL(s string) (base, id string, err error) {
	s = strings.TrimSpace(s)
	if !strings.Contains(s, "://") {
		return "", "", checkServerURL(s) // says it has no scheme
	}
	u, perr := url.Parse(s)
	if perr != nil {
		return "", "", usageErr(fmt.Sprintf("%q is not a URL", s), conversationURLHint)
	}
	id = u.Fragment
	u.Fragment, u.RawFragment = "", ""
	if id == "" {
		if k := strings.LastIndex(u.Path, "/conversations/"); k >= 0 {
			id = strings.Trim(u.Path[k+len("/conversations/"):], "/")
			u.Path = strings.TrimSuffix(strings.TrimSuffix(u.Path[:k], "/api"), "/")
			u.RawPath = ""
			if id == "" {
				return "", "", usageErr(fmt.Sprintf("%s names no conversation after /conversations/", u.Redacted()), conversationURLHint)
			}
		}
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	base = u.String()
	if err := checkServerURL(base); err != nil {
		return "", "", err
	}
	return base, id, nil
}

// redactedURL is a URL as a message may show it: a password in it masked.
func redactedURL(s string) string {
	if u, err := url.Parse(s); err == nil {
		return u.Redacted()
	}
	return s
}
