package otel

import (
	"bufio"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"ohwatch/reducer"
)

// exportBatch is the number of spans per OTLP/JSON line: one
// ExportTraceServiceRequest a line, as the otlpjsonfile receiver reads,
// each small enough for an OTLP/HTTP request.
const exportBatch = 1024

// Export writes the conversation of log as OTLP/JSON: one
// ExportTraceServiceRequest per line. The spans are turned into the OTLP
// messages the SDK's exporters send (convert.go); only the JSON encoding
// is done here (otlpjson.go): what protojson writes, ids in hex as
// OTLP/JSON has them.
func Export(w io.Writer, log *reducer.Log, conversationID, serviceName, version string, opts Options) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	proc := newChunkProcessor(bw, serviceName, version)
	newBuilder(proc.add, conversationID, opts).AddLog(log)
	if err := proc.close(); err != nil { // waits for every chunk
		return err
	}
	return bw.Flush()
}

// chunkProcessor cuts the ended spans into chunks in the order they ended.
// Turning a chunk into OTLP and encoding it is most of an export's work,
// so one worker per CPU does that, each with its own converter, while the
// next spans are built; the lines are written in chunk order, so the file
// is the same every time.
type chunkProcessor struct {
	spans []*span
	jobs  chan chunkJob
	order chan chan encoded
	done  chan struct{}
	w     io.Writer
	err   error     // the first error; read after done
	lines sync.Pool // line buffers, reused once written
}

type chunkJob struct {
	spans []*span
	out   chan encoded
}

type encoded struct {
	b   []byte
	err error
}

func newChunkProcessor(w io.Writer, serviceName, version string) *chunkProcessor {
	workers := runtime.GOMAXPROCS(0)
	p := &chunkProcessor{w: w, jobs: make(chan chunkJob), order: make(chan chan encoded, 2*workers), done: make(chan struct{})}
	for range workers {
		go func() {
			conv := newConverter(serviceName, version)
			var scratch []byte
			for j := range p.jobs {
				var dst []byte
				if b, ok := p.lines.Get().(*[]byte); ok {
					dst = (*b)[:0]
				}
				var r encoded
				r.b, scratch, r.err = appendJSON(dst, scratch, conv.convert(j.spans))
				j.out <- r
			}
		}()
	}
	go func() {
		defer close(p.done)
		for out := range p.order {
			r := <-out
			if p.err == nil && r.err != nil {
				p.err = r.err
			}
			if p.err == nil {
				if _, err := p.w.Write(append(r.b, '\n')); err != nil {
					p.err = err
				}
			}
			b := r.b[:0]
			p.lines.Put(&b)
		}
	}()
	return p
}

// add takes an ended span.
func (p *chunkProcessor) add(s *span) {
	p.spans = append(p.spans, s)
	if len(p.spans) >= exportBatch {
		p.send()
	}
}

// send queues the current chunk; the spans are read-only from here on.
func (p *chunkProcessor) send() {
	if len(p.spans) == 0 {
		return
	}
	out := make(chan encoded, 1)
	p.order <- out
	p.jobs <- chunkJob{p.spans, out}
	p.spans = make([]*span, 0, exportBatch)
}

// close sends the last chunk and waits until every line is written.
func (p *chunkProcessor) close() error {
	p.send()
	close(p.jobs)
	close(p.order)
	<-p.done
	return p.err
}

// MarshalJSON encodes resource spans as one OTLP/JSON
// ExportTraceServiceRequest (enums as numbers, ids as hex).
func MarshalJSON(rs []*tracepb.ResourceSpans) ([]byte, error) {
	out, _, err := appendJSON(nil, nil, rs)
	return out, err
}

// appendJSON appends the OTLP/JSON of rs to dst. The direct encoder
// writes it; a message it does not know all of goes through protojson,
// using scratch for protojson's output. Both buffers are returned for
// reuse, so an export's workers do not grow a fresh megabyte buffer for
// every chunk.
func appendJSON(dst, scratch []byte, rs []*tracepb.ResourceSpans) (out, scratchOut []byte, err error) {
	out, err = appendRequestJSON(dst, rs)
	if err == nil {
		return out, scratch, nil
	}
	if !errors.Is(err, errUnknownField) {
		return dst, scratch, fmt.Errorf("otlp json: %w", err)
	}
	return appendProtoJSON(dst, scratch, rs)
}

// appendProtoJSON is appendJSON through protojson, plus the one deviation
// OTLP/JSON makes from protobuf's JSON mapping: ids in hex, not base64.
// The request's envelope, one member, is written here: its Go type lives
// in the collector package, which would bring the gRPC service and its
// gateway into every build.
func appendProtoJSON(dst, scratch []byte, rs []*tracepb.ResourceSpans) (out, scratchOut []byte, err error) {
	if len(rs) == 0 {
		return append(dst, "{}"...), scratch, nil
	}
	scratch = append(scratch[:0], `{"resourceSpans":[`...)
	for k, r := range rs {
		if k > 0 {
			scratch = append(scratch, ',')
		}
		scratch, err = protojson.MarshalOptions{UseEnumNumbers: true}.MarshalAppend(scratch, r)
		if err != nil {
			return dst, scratch, fmt.Errorf("otlp json: %w", err)
		}
	}
	scratch = append(scratch, "]}"...)
	out, err = hexIDs(dst, scratch)
	return out, scratch, err
}

// idKeys are the members whose bytes OTLP/JSON writes as hex.
var idKeys = [][]byte{[]byte(`"traceId"`), []byte(`"spanId"`), []byte(`"parentSpanId"`)}

// hexIDs rewrites the base64 values of the id members of protojson's output
// as hex. A member name is only matched outside strings: a quote preceded
// by an odd number of backslashes is inside one.
func hexIDs(out, in []byte) ([]byte, error) {
	out = slices.Grow(out, len(in)+len(in)/16)
	i := 0
	for i < len(in) {
		j := indexQuote(in, i)
		if j < 0 {
			break
		}
		key := matchKey(in, j)
		if key == nil {
			// Copy this string literal whole.
			end := stringEnd(in, j)
			out = append(out, in[i:end]...)
			i = end
			continue
		}
		k := j + len(key)
		for k < len(in) && (in[k] == ' ' || in[k] == ':') {
			k++
		}
		if k >= len(in) || in[k] != '"' {
			return nil, errors.New("otlp json: id member without a string value")
		}
		end := stringEnd(in, k)
		raw, err := base64.StdEncoding.DecodeString(string(in[k+1 : end-1]))
		if err != nil {
			return nil, fmt.Errorf("otlp json: id is not base64: %w", err)
		}
		out = append(out, in[i:k+1]...)
		out = hex.AppendEncode(out, raw)
		out = append(out, '"')
		i = end
	}
	return append(out, in[i:]...), nil
}

// indexQuote returns the index of the next '"' at or after i, -1 if none.
func indexQuote(b []byte, i int) int {
	for ; i < len(b); i++ {
		if b[i] == '"' {
			return i
		}
	}
	return -1
}

// stringEnd returns the index just past the string literal opening at i.
func stringEnd(b []byte, i int) int {
	for k := i + 1; k < len(b); k++ {
		switch b[k] {
		case '\\':
			k++
		case '"':
			return k + 1
		}
	}
	return len(b)
}

// matchKey returns the id member name that starts at b[i], if one does and
// is followed by a colon (a member name, not a value).
func matchKey(b []byte, i int) []byte {
	for _, k := range idKeys {
		if len(b)-i >= len(k) && string(b[i:i+len(k)]) == string(k) {
			rest := i + len(k)
			for rest < len(b) && b[rest] == ' ' {
				rest++
			}
			if rest < len(b) && b[rest] == ':' {
				return k
			}
		}
	}
	return nil
}
