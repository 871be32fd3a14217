package files

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// JSONL segments: the first is small so the first screen shows at once;
// later ones are large so each worker gets enough lines to be worth it.
const (
	firstSegment = 256 << 10
	maxSegment   = 4 << 20
)

// openJSONL opens a file of one event per line. Its progress is counted
// in bytes: the number of events is not known before the file is read.
func openJSONL(path string, size int64) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open conversation: %w", err)
	}
	name := filepath.Base(path)
	r := &Reader{header: Conversation{Path: path}, total: size, close: f.Close}
	// A file named after its conversation (<id>.jsonl) gives the id.
	if stem := strings.TrimSuffix(name, filepath.Ext(name)); model.IsConversationID(stem) {
		r.header.ID = model.NormalizeConversationID(stem)
	}
	r.jobs = func(ctx context.Context) <-chan job { return jsonlJobs(ctx, f, name, size, r.space) }
	return r, nil
}

// jsonlJobs reads the file in segments cut at line ends and makes each
// segment a job. A line longer than a segment (events reach many MB) grows
// the segment until it fits: there is no line-length limit. Each event's
// Raw is a sub-slice of its segment, so the bytes are read once and never
// copied.
//
// Given a space (Reader.ReadInto), segments are its blocks, so a log keeps
// the events where they were read; each is cut to what is left of the
// file as measured (fileSize) and one byte more, which tells its end from
// a file that grew, so that no unread tail stays with the log. A line read
// on past its segment grows in the heap instead (the log would keep each
// smaller try), and so does what a file grew by.
func jsonlJobs(ctx context.Context, f io.Reader, name string, fileSize int64, space func(n int) []byte) <-chan job {
	jobs := make(chan job)
	go func() {
		defer close(jobs)
		var carry []byte
		var unreported int64 // bytes read but not yet counted in a job
		var read int64       // bytes read in all
		growing := false     // carry is a line longer than its segment
		line := 1
		size := firstSegment
		for seq := 0; ; seq++ {
			grow := max(size, len(carry))
			if len(carry) > 0 && len(carry)+grow > MaxEventBytes {
				// A line being read on stops growing at the limit for
				// one event: past it, it is skipped (skipLine).
				grow = max(MaxEventBytes-len(carry), firstSegment)
			}
			var buf []byte
			if space != nil && !growing && read <= fileSize {
				grow = int(min(int64(grow), fileSize-read+1))
				buf = space(len(carry) + grow)[:len(carry)+grow]
			} else {
				buf = make([]byte, len(carry)+grow)
			}
			copy(buf, carry)
			n, err := io.ReadFull(f, buf[len(carry):])
			buf = buf[:len(carry)+n]
			unreported += int64(n)
			read += int64(n)
			growing = false
			atEnd := err == io.EOF || err == io.ErrUnexpectedEOF
			var readErr error
			if err != nil && !atEnd {
				readErr, atEnd = err, true
			}
			body := buf
			carry = nil
			if !atEnd {
				cut := bytes.LastIndexByte(buf, '\n')
				if cut < 0 && len(buf) >= MaxEventBytes {
					// A line over the limit for one event (a sparse
					// file of gigabytes, no newline): not held, but
					// read past in bounded chunks and kept as a
					// placeholder.
					rest, n, err := skipLine(ctx, f)
					unreported += n
					if ctx.Err() != nil {
						return
					}
					first := line
					ev, _ := model.UnreadableEvent(buf[:model.HeadScan], MaxEventBytes)
					warn := sanitize.Line(fmt.Sprintf("%s:%d: not read: a line of %s, over the %s limit for one event", name, first, model.ByteSize(int64(len(buf))+n-int64(len(rest))), model.ByteSize(MaxEventBytes)))
					j := job{seq: seq, units: unreported, run: func(context.Context, *slab) part {
						return part{Events: []model.Event{ev}, Warnings: []string{warn}}
					}}
					unreported = 0
					select {
					case <-ctx.Done():
						return
					case jobs <- j:
					}
					if err != nil {
						return
					}
					line++
					carry, size = rest, firstSegment
					continue
				}
				if cut < 0 {
					// One line fills the whole segment: read on.
					if ctx.Err() != nil {
						return
					}
					carry, size, growing = buf, 2*len(buf), true
					seq--
					continue
				}
				body, carry = buf[:cut+1], buf[cut+1:]
			}
			first := line
			line += bytes.Count(body, []byte{'\n'})
			last := line
			j := job{seq: seq, units: unreported, run: func(ctx context.Context, _ *slab) part {
				p := decodeLines(ctx, body, name, first)
				if readErr != nil {
					p.Warnings = append(p.Warnings, sanitize.Line(fmt.Sprintf("%s:%d: read failed, the rest of the file is lost: %s", name, last, shortError(readErr))))
				}
				return p
			}}
			unreported = 0
			select {
			case <-ctx.Done():
				return
			case jobs <- j:
			}
			if atEnd {
				return
			}
			size = min(2*size, maxSegment)
		}
	}()
	return jobs
}

// decodeLines decodes the events of a run of whole lines whose first line
// has number first. Blank lines are skipped; a bad line is a warning that
// names its line number.
func decodeLines(ctx context.Context, body []byte, name string, first int) part {
	var p part
	line := first
	for len(body) > 0 {
		if line%cancelCheck == 0 && ctx.Err() != nil {
			return p
		}
		end := bytes.IndexByte(body, '\n')
		var text []byte
		if end < 0 {
			text, body = body, nil
		} else {
			text, body = body[:end], body[end+1:]
		}
		text = bytes.TrimRight(text, " \t\r")
		if len(bytes.TrimLeft(text, " \t")) > 0 {
			// Cap the capacity so an append to Raw can never reach the
			// next line's bytes.
			raw := text[:len(text):len(text)]
			n := line
			ev, warn, ok := decodeEvent(func() string { return name + ":" + strconv.Itoa(n) }, raw)
			if warn != "" {
				p.Warnings = append(p.Warnings, warn)
			}
			if ok {
				p.Events = append(p.Events, ev)
			}
		}
		line++
	}
	return p
}

// skipLine reads past the rest of a line too long to keep, in chunks of
// maxSegment, stopping when ctx ends. It returns what follows the line's
// end (nil at the end of the file), the bytes read, and io.EOF when the
// file ended inside the line.
func skipLine(ctx context.Context, f io.Reader) (rest []byte, n int64, err error) {
	buf := make([]byte, maxSegment)
	for ctx.Err() == nil {
		m, err := f.Read(buf)
		n += int64(m)
		if i := bytes.IndexByte(buf[:m], '\n'); i >= 0 {
			return append([]byte(nil), buf[i+1:m]...), n, nil
		}
		if err != nil {
			return nil, n, io.EOF
		}
	}
	return nil, n, ctx.Err()
}
