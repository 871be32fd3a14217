package serve

import (
	"fmt"
	"strconv"
	"strings"
)

// FaultSpecs documents the fault specifications ParseFault accepts, one per
// line, for help texts.
const FaultSpecs = `drop-every=N     drop each socket abruptly (no close frame) after it has sent N frames
drop-at=N[,M…]   drop the socket that sends the server's N-th frame (counted over all sockets)
drop-chance=P    drop a socket after any frame with probability P (0-1); seed=S makes it reproducible
stale-state      after the snapshot, resend the old per-field state updates (execution_status=running…)
double-send[=N]  a resend (resend_mode=all/since) sends its newest N events (default 10) twice
silence-after=N  after N events the conversation goes silent: nothing more is sent, REST answers 404
close=CODE[:N]   close the next N sockets (default 1) at once: 4001 authentication failed, 1013 try again later,
                 1008 unknown to a Docker-runtime server, 1011 its runtime cannot start
no-tree          answer 404 to fork and navigate, as an agent-server older than 1.31 does
no-interrupt     answer 404 to interrupt, as an agent-server from before that route does
no-session       refuse /sockets/session (403), as an agent-server older than 1.45 does
archive[=ID,…]   have archives (archived_at; search and count list active ones unless archive_filter=ARCHIVED|ALL), these archived
docker           play a Docker-runtime agent-server: 501 for fork, switch_llm, switch_profile, credential-bindings; a runtime route
runtime=S[:resume] GET /{id}/runtime reports runtime_status S (available, starting, missing, ownership_lost, error)`

// defaultDoubleSend is the overlap of double-send without a count.
const defaultDoubleSend = 10

// ParseFault adds one fault specification (see FaultSpecs), such as
// "drop-every=50", "stale-state" or "close=4001:2", to f. Specifications
// accumulate: a fault given twice takes the later value, except drop-at,
// whose frames add up.
func ParseFault(spec string, f *Faults) error {
	name, value, hasValue := strings.Cut(strings.TrimSpace(spec), "=")
	needValue := func() error {
		if !hasValue || value == "" {
			return fmt.Errorf("fault %s needs a value: %s=…", name, name)
		}
		return nil
	}
	count := func(min int) (int, error) {
		if err := needValue(); err != nil {
			return 0, err
		}
		n, err := strconv.Atoi(value)
		if err != nil || n < min {
			return 0, fmt.Errorf("fault %s: %q is not a whole number of at least %d", name, value, min)
		}
		return n, nil
	}
	noValue := func() error {
		if hasValue {
			return fmt.Errorf("fault %s takes no value", name)
		}
		return nil
	}
	var err error
	switch name {
	case "drop-every":
		f.DropAfterFrames, err = count(1)
	case "drop-at":
		if err = needValue(); err != nil {
			return err
		}
		for _, part := range strings.Split(value, ",") {
			n, convErr := strconv.Atoi(strings.TrimSpace(part))
			if convErr != nil || n < 1 {
				return fmt.Errorf("fault drop-at: %q is not a frame number (1 or more)", part)
			}
			f.DropAtFrames = append(f.DropAtFrames, n)
		}
	case "drop-chance":
		if err = needValue(); err != nil {
			return err
		}
		p, convErr := strconv.ParseFloat(value, 64)
		if convErr != nil || !(p >= 0 && p <= 1) {
			return fmt.Errorf("fault drop-chance: %q is not a probability from 0 to 1", value)
		}
		f.DropChance = p
	case "seed":
		if err = needValue(); err != nil {
			return err
		}
		s, convErr := strconv.ParseUint(value, 10, 64)
		if convErr != nil {
			return fmt.Errorf("fault seed: %q is not a whole number", value)
		}
		f.Seed = s
	case "stale-state":
		err = noValue()
		f.StaleState = err == nil
	case "double-send":
		f.ReplayOverlap = defaultDoubleSend
		if hasValue {
			f.ReplayOverlap, err = count(1)
		}
	case "silence-after":
		f.SilentAfter, err = count(1)
	case "close":
		err = parseClose(value, hasValue, f)
	case "no-tree":
		err = noValue()
		f.NoTree = err == nil
	case "no-interrupt":
		err = noValue()
		f.NoInterrupt = err == nil
	case "no-session":
		err = noValue()
		f.NoSessionSocket = err == nil
	case "archive":
		parseArchive(value, f)
	case "docker":
		err = noValue()
		f.Docker = err == nil
	case "runtime":
		if err = needValue(); err == nil {
			err = parseRuntime(value, f)
		}
	case "":
		err = fmt.Errorf("empty fault: one of drop-every, drop-at, drop-chance, seed, stale-state, double-send, silence-after, close, no-tree, no-interrupt, no-session, archive, docker, runtime")
	default:
		err = fmt.Errorf("unknown fault %q: one of drop-every, drop-at, drop-chance, seed, stale-state, double-send, silence-after, close, no-tree, no-interrupt, no-session, archive, docker, runtime", name)
	}
	return err
}

// parseClose reads close=CODE[:N].
func parseClose(value string, hasValue bool, f *Faults) error {
	if !hasValue || value == "" {
		return fmt.Errorf("fault close needs a code: close=4001, 1013, 1008 or 1011")
	}
	code, times, hasTimes := strings.Cut(value, ":")
	n := 1
	if hasTimes {
		var err error
		if n, err = strconv.Atoi(times); err != nil || n < 1 {
			return fmt.Errorf("fault close: %q is not a number of sockets (1 or more)", times)
		}
	}
	switch code {
	case strconv.Itoa(closeAuthFailed):
		f.CloseAuth = n
	case strconv.Itoa(closeTryAgainLater):
		f.CloseBusy = n
	case strconv.Itoa(closePolicyViolation):
		f.CloseUnknown = n
	case strconv.Itoa(closeInternalError):
		f.CloseRuntime = n
	default:
		return fmt.Errorf("fault close: code %q is not 4001 (authentication failed), 1013 (try again later), 1008 (unknown conversation) or 1011 (runtime cannot start)", code)
	}
	return nil
}

// String renders the faults as the specifications that set them, "none"
// for none.
func (f Faults) String() string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if f.DropAfterFrames > 0 {
		add("drop-every=%d", f.DropAfterFrames)
	}
	if len(f.DropAtFrames) > 0 {
		parts := make([]string, len(f.DropAtFrames))
		for i, n := range f.DropAtFrames {
			parts[i] = strconv.Itoa(n)
		}
		add("drop-at=%s", strings.Join(parts, ","))
	}
	if f.DropChance > 0 {
		add("drop-chance=%g", f.DropChance)
	}
	if f.Seed != 0 {
		add("seed=%d", f.Seed)
	}
	if f.StaleState {
		add("stale-state")
	}
	if f.ReplayOverlap > 0 {
		add("double-send=%d", f.ReplayOverlap)
	}
	if f.SilentAfter > 0 {
		add("silence-after=%d", f.SilentAfter)
	}
	if f.CloseAuth > 0 {
		add("close=%d:%d", closeAuthFailed, f.CloseAuth)
	}
	if f.CloseBusy > 0 {
		add("close=%d:%d", closeTryAgainLater, f.CloseBusy)
	}
	if f.CloseUnknown > 0 {
		add("close=%d:%d", closePolicyViolation, f.CloseUnknown)
	}
	if f.CloseRuntime > 0 {
		add("close=%d:%d", closeInternalError, f.CloseRuntime)
	}
	if f.NoTree {
		add("no-tree")
	}
	if f.NoInterrupt {
		add("no-interrupt")
	}
	if f.NoSessionSocket {
		add("no-session")
	}
	switch {
	case f.Archives && len(f.Archived) > 0:
		add("archive=%s", strings.Join(f.Archived, ","))
	case f.Archives:
		add("archive")
	}
	if f.Docker {
		add("docker")
	}
	if f.Runtime != "" {
		resume := ""
		if f.RuntimeCanResume {
			resume = ":resume"
		}
		add("runtime=%s%s", f.Runtime, resume)
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, " ")
}
