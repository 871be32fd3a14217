package otel

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"ohwatch/reducer"
)

// exportBatch is the number of spans per OTLP/JSON line: one
// ExportTraceServiceRequest a line, as the otlpjsonfile receiver reads,
// each small enough for an OTLP/HTTP request.
const exportBatch = 1024

// Export writes the conversation of log as OTLP/JSON: one
// ExportTraceServiceRequest per line. The spans are made by the SDK and
// turned into OTLP by its exporter; only the JSON encoding is done here,
// with protojson, plus the one deviation OTLP/JSON makes from protobuf's
// JSON mapping: trace and span ids are hex, not base64.
func Export(w io.Writer, log *reducer.Log, conversationID, serviceName, version string, opts Options) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	client := newJSONClient(bw)
	exp := otlptrace.NewUnstarted(client)
	proc := &chunkProcessor{exp: exp}
	tp := NewProvider(proc, serviceName, version)
	b := NewBuilder(Tracer(tp, version), conversationID, opts)
	b.AddLog(log)
	err := tp.Shutdown(context.Background()) // stops the client: all written
	if err == nil {
		err = proc.err
	}
	if err == nil {
		err = client.Stop(context.Background())
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// chunkProcessor hands ended spans to the exporter in chunks, in the order
// they ended, synchronously: a file export is deterministic.
type chunkProcessor struct {
	exp   sdktrace.SpanExporter
	spans []sdktrace.ReadOnlySpan
	err   error
}

func (p *chunkProcessor) OnStart(context.Context, sdktrace.ReadWriteSpan) {}

func (p *chunkProcessor) OnEnd(s sdktrace.ReadOnlySpan) {
	p.spans = append(p.spans, s)
	if len(p.spans) >= exportBatch {
		p.export(context.Background())
	}
}

func (p *chunkProcessor) export(ctx context.Context) {
	if len(p.spans) == 0 || p.err != nil {
		p.spans = p.spans[:0]
		return
	}
	p.err = p.exp.ExportSpans(ctx, p.spans)
	clear(p.spans)
	p.spans = p.spans[:0]
}

func (p *chunkProcessor) Shutdown(ctx context.Context) error {
	p.export(ctx)
	return p.exp.Shutdown(ctx)
}

func (p *chunkProcessor) ForceFlush(ctx context.Context) error {
	p.export(ctx)
	return p.err
}

// jsonClient is an otlptrace.Client that writes each upload as one line of
// OTLP/JSON. Encoding is most of an export's work, so uploads are encoded
// by one worker per CPU while the spans of the next ones are built, and
// written in the order they were uploaded.
type jsonClient struct {
	w      io.Writer
	jobs   chan encodeJob
	order  chan chan encoded
	done   chan struct{}
	err    error // the first encoding or write error; read after done
	closed sync.Once
}

type encodeJob struct {
	rs  []*tracepb.ResourceSpans
	out chan encoded
}

type encoded struct {
	b   []byte
	err error
}

var _ otlptrace.Client = (*jsonClient)(nil)

func newJSONClient(w io.Writer) *jsonClient {
	workers := runtime.GOMAXPROCS(0)
	c := &jsonClient{w: w, jobs: make(chan encodeJob), order: make(chan chan encoded, 2*workers), done: make(chan struct{})}
	for range workers {
		go func() {
			for j := range c.jobs {
				b, err := MarshalJSON(j.rs)
				j.out <- encoded{b, err}
			}
		}()
	}
	go func() {
		defer close(c.done)
		for out := range c.order {
			r := <-out
			if c.err == nil && r.err != nil {
				c.err = r.err
			}
			if c.err == nil {
				if _, err := c.w.Write(append(r.b, '\n')); err != nil {
					c.err = err
				}
			}
		}
	}()
	return c
}

func (c *jsonClient) Start(context.Context) error { return nil }

// Stop waits for every upload to be written and returns the first error.
func (c *jsonClient) Stop(context.Context) error {
	c.closed.Do(func() {
		close(c.jobs)
		close(c.order)
	})
	<-c.done
	return c.err
}

// UploadTraces queues the spans for encoding; it returns at once.
func (c *jsonClient) UploadTraces(_ context.Context, rs []*tracepb.ResourceSpans) error {
	out := make(chan encoded, 1)
	c.order <- out
	c.jobs <- encodeJob{rs, out}
	return nil
}

// MarshalJSON encodes resource spans as one OTLP/JSON
// ExportTraceServiceRequest (enums as numbers, ids as hex).
func MarshalJSON(rs []*tracepb.ResourceSpans) ([]byte, error) {
	req := &coltracepb.ExportTraceServiceRequest{ResourceSpans: rs}
	b, err := protojson.MarshalOptions{UseEnumNumbers: true}.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("otlp json: %w", err)
	}
	return hexIDs(b)
}

// idKeys are the members whose bytes OTLP/JSON writes as hex.
var idKeys = [][]byte{[]byte(`"traceId"`), []byte(`"spanId"`), []byte(`"parentSpanId"`)}

// hexIDs rewrites the base64 values of the id members of protojson's output
// as hex. A member name is only matched outside strings: a quote preceded
// by an odd number of backslashes is inside one.
func hexIDs(in []byte) ([]byte, error) {
	out := make([]byte, 0, len(in)+len(in)/16)
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
