package gen

import (
	"encoding/base64"
	"math/rand/v2"
)

// The identifiers below look like upstream's (uuid4 event ids, Anthropic
// tool-call ids, LiteLLM completion ids, thinking signatures) but are drawn
// from the generator's seeded source, so the same seed gives the same ids.

// hexDigits spell a UUID, in lower case.
const hexDigits = "0123456789abcdef"

// randUUID returns a version-4 UUID in its dashed form.
func randUUID(r *rand.Rand) string {
	var b [16]byte
	a, c := r.Uint64(), r.Uint64()
	for i := 0; i < 8; i++ {
		b[i] = byte(a >> (8 * i))
		b[8+i] = byte(c >> (8 * i))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var out [36]byte
	j := 0
	for i, v := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out[j] = '-'
			j++
		}
		out[j] = hexDigits[v>>4]
		out[j+1] = hexDigits[v&0xf]
		j += 2
	}
	return string(out[:])
}

// hexID returns a UUID in the 32-character undashed form used by
// conversation directories and meta.json.
func hexID(dashed string) string {
	out := make([]byte, 0, 32)
	for i := 0; i < len(dashed); i++ {
		if dashed[i] != '-' {
			out = append(out, dashed[i])
		}
	}
	return string(out)
}

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// randToolCallID returns an Anthropic-style tool call id ("toolu_01…").
func randToolCallID(r *rand.Rand) string {
	out := make([]byte, 0, 30)
	out = append(out, "toolu_01"...)
	for i := 0; i < 22; i++ {
		out = append(out, base58Alphabet[r.IntN(len(base58Alphabet))])
	}
	return string(out)
}

// randResponseID returns a LiteLLM completion id ("chatcmpl-<uuid>").
func randResponseID(r *rand.Rand) string {
	return "chatcmpl-" + randUUID(r)
}

// randSignature returns a base64 blob shaped like an Anthropic thinking
// block signature; its length follows the thinking text's, as upstream's do.
func randSignature(r *rand.Rand, thinkingLen int) string {
	n := 240 + thinkingLen/2
	if n > 900 {
		n = 900
	}
	raw := make([]byte, n)
	for i := 0; i < n; i += 8 {
		v := r.Uint64()
		for j := 0; j < 8 && i+j < n; j++ {
			raw[i+j] = byte(v >> (8 * j))
		}
	}
	// Real signatures start with the same few bytes (a protobuf header).
	raw[0], raw[1], raw[2] = 0x12, 0xa7, 0x02
	return base64.StdEncoding.EncodeToString(raw)
}
