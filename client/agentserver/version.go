package agentserver

import (
	"strconv"
	"strings"
)

// serverFeatures are the protocol features that depend on the server's
// version (protocol §13).
type serverFeatures struct {
	// since: resend_mode=since&after_timestamp (v1.15.0+).
	since bool
	// firstFrameAuth: {"type":"auth",...} as the first frame (v1.18.1+);
	// older servers take the key only as a handshake header.
	firstFrameAuth bool
}

// modernFeatures is assumed when the version is unknown: every current
// server has both, and the watch still notices a server that ignores since.
func modernFeatures() serverFeatures { return serverFeatures{since: true, firstFrameAuth: true} }

// featuresOf reads a /server_info version ("1.43.1", "v1.14.0rc1").
func featuresOf(version string) serverFeatures {
	v, ok := parseVersion(version)
	if !ok {
		return modernFeatures()
	}
	return serverFeatures{
		since:          !versionLess(v, [3]int{1, 15, 0}),
		firstFrameAuth: !versionLess(v, [3]int{1, 18, 1}),
	}
}

// parseVersion reads major.minor.patch, ignoring a leading v and any
// pre-release or build suffix on the last number.
func parseVersion(s string) ([3]int, bool) {
	var v [3]int
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	if s == "" {
		return v, false
	}
	parts := strings.SplitN(s, ".", 3)
	for i, p := range parts {
		end := 0
		for end < len(p) && p[end] >= '0' && p[end] <= '9' {
			end++
		}
		if end == 0 {
			return v, false
		}
		n, err := strconv.Atoi(p[:end])
		if err != nil {
			return v, false
		}
		v[i] = n
		if end < len(p) {
			break
		}
	}
	return v, true
}

// versionLess orders versions.
func versionLess(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
