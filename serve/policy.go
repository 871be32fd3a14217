package serve

import (
	"encoding/json"
	"fmt"
	"net/http"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// policy is a confirmation policy set over POST /confirmation_policy. Once
// set, it (and no longer the recording) decides which of the agent's
// actions wait for an answer: a recorded wait the policy does not call for
// is passed over, and an action it calls for waits although the recording
// ran it at once.
type policy struct {
	kind           string // NeverConfirm | AlwaysConfirm | ConfirmRisky
	threshold      string // LOW | MEDIUM | HIGH, for ConfirmRisky
	confirmUnknown bool
	raw            json.RawMessage // as the state reports it
}

// riskRank orders the SDK's SecurityRisk values; UNKNOWN is not ranked.
var riskRank = map[string]int{"LOW": 1, "MEDIUM": 2, "HIGH": 3}

// parsePolicy reads SetConfirmationPolicyRequest's policy, refusing what
// the SDK's validators refuse.
func parsePolicy(data []byte) (*policy, error) {
	var req struct {
		Policy *struct {
			Kind           string `json:"kind"`
			Threshold      string `json:"threshold"`
			ConfirmUnknown *bool  `json:"confirm_unknown"`
		} `json:"policy"`
	}
	if err := json.Unmarshal(data, &req); err != nil || req.Policy == nil {
		return nil, fmt.Errorf(`body: {"policy": {"kind": "NeverConfirm"|"AlwaysConfirm"|"ConfirmRisky", ...}} expected`)
	}
	p := &policy{kind: req.Policy.Kind}
	switch p.kind {
	case "NeverConfirm", "AlwaysConfirm":
		p.raw = mustJSON(map[string]string{"kind": p.kind})
	case "ConfirmRisky":
		p.threshold, p.confirmUnknown = "HIGH", true
		if req.Policy.Threshold != "" {
			p.threshold = req.Policy.Threshold
		}
		if _, ok := riskRank[p.threshold]; !ok {
			return nil, fmt.Errorf("threshold must be LOW, MEDIUM or HIGH (not UNKNOWN)")
		}
		if req.Policy.ConfirmUnknown != nil {
			p.confirmUnknown = *req.Policy.ConfirmUnknown
		}
		p.raw = mustJSON(struct {
			Kind           string `json:"kind"`
			Threshold      string `json:"threshold"`
			ConfirmUnknown bool   `json:"confirm_unknown"`
		}{p.kind, p.threshold, p.confirmUnknown})
	default:
		return nil, fmt.Errorf("unknown policy kind %q", sanitize.Line(p.kind))
	}
	return p, nil
}

// needs reports whether an action of this risk waits under the policy,
// as the SDK's should_confirm decides.
func (p *policy) needs(risk string) bool {
	switch p.kind {
	case "NeverConfirm":
		return false
	case "AlwaysConfirm":
		return true
	}
	r, ok := riskRank[risk]
	if !ok {
		return p.confirmUnknown
	}
	return r >= riskRank[p.threshold]
}

// pendingNeedLocked reports whether any action without a result waits
// under the policy.
func (c *conversation) pendingNeedLocked() bool {
	for _, a := range c.state.Pending {
		if c.policy.needs(a.SecurityRisk) {
			return true
		}
	}
	return false
}

// setPolicy records the policy and emits the confirmation_policy state
// update the agent-server emits for it.
func (c *conversation) setPolicy(p *policy) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.policy = p
	c.emitNewLocked(stateUpdateJSON(c.nowLocked(), "confirmation_policy", p.raw))
}

// passesWaitLocked reports whether recorded event ev is an
// execution_status=waiting_for_confirmation to pass over: once a policy is
// set, it decides every wait (policyWaitLocked), not the recording.
func (c *conversation) passesWaitLocked(ev model.Event) bool {
	u, ok := ev.Body.(*model.StateUpdate)
	return c.policy != nil && ok && !u.FullState && u.ExecutionStatus == model.StatusWaitingForConfirmation
}

// policyWaitLocked decides, after recorded event i, the wait the policy
// makes of the actions out so far: once the last action of a step is out
// (the next recorded event is not another action), the conversation waits
// if one of them calls for it and goes on if none does, whatever the
// recording did. It reports whether the conversation now waits.
func (c *conversation) policyWaitLocked(i int) bool {
	if c.policy == nil || len(c.state.Pending) == 0 {
		return false
	}
	if _, ok := c.recorded[i].Body.(*model.Action); !ok {
		return false
	}
	if i+1 < len(c.recorded) {
		if _, next := c.recorded[i+1].Body.(*model.Action); next {
			return false
		}
	}
	if !c.pendingNeedLocked() {
		if c.sentStatus == model.StatusWaitingForConfirmation {
			c.sendStatusLocked(model.StatusRunning)
		}
		return false
	}
	if c.sentStatus == model.StatusWaitingForConfirmation {
		return false // already waiting: the caller saw the change
	}
	c.sendStatusLocked(model.StatusWaitingForConfirmation)
	return true
}

// handleConfirmationPolicy answers POST /{id}/confirmation_policy.
func (s *Server) handleConfirmationPolicy(w http.ResponseWriter, r *http.Request) {
	var data json.RawMessage
	if err := readBody(r, &data); err != nil {
		writeDetail(w, http.StatusUnprocessableEntity, "body is not JSON")
		return
	}
	p, err := parsePolicy(data)
	if err != nil {
		writeDetail(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	s.control(w, r, func(c *conversation) error { c.setPolicy(p); return nil })
}
