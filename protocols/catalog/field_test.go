package catalog

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/protocols"
)

// fieldOutcome is what became of one field frame.
type fieldOutcome int

const (
	fieldStored      fieldOutcome = iota // decoded, with data to store
	fieldAnswered                        // decoded, data-free (login, heartbeat, ...)
	fieldChecksum                        // taken only from a device marked ignoreChecksum
	fieldLost                            // decoded to nothing where Traccar stores a position
	fieldUnsupported                     // a type not decoded: not answered, kept in the inbox
	fieldFailed                          // not decoded
)

var fieldOutcomes = [...]string{"stored", "data-free", "checksum", "lost", "unsupported", "failed"}

// fieldFrame runs one captured frame through the protocol as a listener
// would: cut by its Split and decoded on one connection's state.
func fieldFrame(p protocols.Stream, data []byte) (fieldOutcome, string) {
	conn := &protocols.Conn{}
	var frames [][]byte
	for rest := data; len(rest) > 0; {
		adv, tok, err := p.Split(rest, true)
		if err != nil || adv <= 0 {
			break
		}
		if tok != nil {
			frames = append(frames, tok)
		}
		rest = rest[adv:]
	}
	var results []protocols.Result
	if len(frames) == 0 {
		// The captures hold frames as the frame decoder hands them on,
		// some without their delimiter; a datagram protocol's packet is
		// decoded whole.
		if dg, ok := p.(protocols.Datagram); ok {
			res, err := dg.DecodeDatagram(conn, data)
			if err == nil {
				results = append(results, res)
			} else {
				frames = append(frames, data)
			}
		} else {
			frames = append(frames, data)
		}
	}
	for _, f := range frames {
		res, err := p.Decode(conn, f)
		if err != nil {
			return fieldFailed, err.Error()
		}
		if res.UniqueID != "" {
			conn.UniqueID = res.UniqueID
		}
		results = append(results, res)
	}
	out := fieldAnswered
	for _, res := range results {
		switch {
		case res.Unsupported != "":
			return fieldUnsupported, res.Unsupported
		case res.ChecksumError:
			out = max(out, fieldChecksum)
		case len(res.Positions) > 0 || res.CommandResult != "":
			out = min(out, fieldStored)
		}
	}
	return out, ""
}

// minUnderstood is the share of a protocol's field frames that must be
// understood: the aim is 95 %; below it, what is measured now, so it can
// only rise (docs/devices.md says what is missing).
func minUnderstood(protocol string) float64 {
	switch protocol {
	case "teltonika":
		return 0.90 // 42 frames: 3 DualCam photo chunks and 1 frame with a zero length field
	}
	return 0.95
}

// TestFieldFrames runs every field frame of testdata/field through its
// protocol and reports what became of them; it fails when fewer than
// minUnderstood of a protocol's frames are understood: stored, answered as
// data-free where Traccar finds no position in them either, or refused only
// for their checksum (taken once the device is marked).
func TestFieldFrames(t *testing.T) {
	for _, e := range All() {
		if e.Stream == nil {
			continue
		}
		t.Run(e.Name, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", "field", e.Name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var counts [len(fieldOutcomes)]int
			total := 0
			for lines := bufio.NewScanner(f); lines.Scan(); {
				line := lines.Text()
				if strings.HasPrefix(line, "#") || line == "" {
					continue
				}
				expect, h, _ := strings.Cut(line, " ")
				data, err := hex.DecodeString(h)
				if err != nil {
					t.Fatalf("bad line %q", line)
				}
				got, why := fieldFrame(e.Stream, data)
				if got == fieldAnswered && expect != "verifyNull" {
					got, why = fieldLost, "no position"
				}
				counts[got]++
				total++
				if got >= fieldLost {
					t.Logf("%s %s (Traccar: %s): %s", fieldOutcomes[got], printable(data), expect, why)
				}
			}
			var report []string
			for i, n := range counts {
				report = append(report, fmt.Sprintf("%s %d", fieldOutcomes[i], n))
			}
			understood := float64(counts[fieldStored]+counts[fieldAnswered]+counts[fieldChecksum]) / float64(total)
			t.Logf("%d frames: %s; understood %.1f %%", total, strings.Join(report, ", "), 100*understood)
			if want := minUnderstood(e.Name); understood < want {
				t.Errorf("%.1f %% of %s's field frames understood, want at least %.0f %%", 100*understood, e.Name, 100*want)
			}
		})
	}
}

// printable shows a text frame as text, a binary one as hex.
func printable(b []byte) string {
	for _, c := range b {
		if c < 0x20 && c != '\r' && c != '\n' || c > 0x7e {
			return hex.EncodeToString(b)
		}
	}
	return fmt.Sprintf("%q", b)
}
