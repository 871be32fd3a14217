package reducer

// Upstream's tree holds events, not state updates: a
// ConversationStateUpdateEvent is a "state-sync artifact, not a tree node"
// that never becomes leaf_event_id (openhands-sdk conversation/state.py,
// ConversationState.append_event; model.EventKind.Artifact). A path here
// also folds the state updates written along it, so that the State at its
// end says what the server said last; these count the two apart.

// PathNodes counts path p's events that are nodes of upstream's tree and,
// apart, the state-sync artifacts folded along it. nodes is the length of
// the SDK's path to the same leaf (ConversationState.active_branch).
func (l *Log) PathNodes(p Path) (nodes, artifacts int) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	for _, sp := range p {
		for i := sp.From; i <= sp.To && i < l.n; i++ {
			if l.artifactAt(i) {
				artifacts++
			} else {
				nodes++
			}
		}
	}
	return nodes, artifacts
}

// NodeTip is the last tree node on path p: the leaf_event_id upstream
// reports for it (HEAD for HEAD's path), never a state update. -1 when
// the path holds none.
func (l *Log) NodeTip(p Path) int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	for k := len(p) - 1; k >= 0; k-- {
		for i := min(p[k].To, l.n-1); i >= p[k].From; i-- {
			if !l.artifactAt(i) {
				return i
			}
		}
	}
	return -1
}

// artifactAt is isArtifact of stored event i; the lock is held.
func (l *Log) artifactAt(i int) bool {
	return l.st.recs[i/recChunk][i%recChunk].flags&flagArtifact != 0
}
