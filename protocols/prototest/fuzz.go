package prototest

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// AddSeeds adds text frames to a fuzz target's corpus.
func AddSeeds(f *testing.F, frames ...string) {
	for _, s := range frames {
		f.Add([]byte(s))
	}
}

// AddHexSeeds adds hex-written frames to a fuzz target's corpus.
func AddHexSeeds(f *testing.F, hexFrames ...string) {
	f.Helper()
	for _, s := range hexFrames {
		f.Add(Unhex(f, s))
	}
}

// SplitDecode is the body of a protocol's split-and-decode fuzz target. It
// runs data through p.Split as a partial buffer and then at EOF, decoding
// every frame on one connection as the listener does, then decodes data
// unsplit. It fails t when Split returns more than it was given, a token
// without advancing, or nothing at EOF while bytes remain (the listener
// would spin or stall); when a decoded position is not storable (see
// Storable); or when Encode, tried with every listed command on the state
// Decode left, fails with anything but app.ErrInvalid. Panics fail the fuzz
// target by themselves. It returns every token Split cut, from both passes,
// for protocol-specific checks.
func SplitDecode(t testing.TB, p protocols.Stream, data []byte) [][]byte {
	t.Helper()
	conn := &protocols.Conn{}
	defer conn.Release() // as the listener does when a connection ends
	var frames [][]byte
	for _, atEOF := range []bool{false, true} {
		for rest := data; len(rest) > 0; {
			adv, tok, err := p.Split(rest, atEOF)
			if err != nil {
				break
			}
			if adv < 0 || adv > len(rest) || len(tok) > adv {
				t.Fatalf("Split(%q, %v) = %d with a %d-byte token", rest, atEOF, adv, len(tok))
			}
			if adv == 0 {
				if tok != nil || atEOF {
					t.Fatalf("Split(%q, %v) made no progress (token %q)", rest, atEOF, tok)
				}
				break // asks for more input
			}
			if tok != nil {
				frames = append(frames, tok)
				decodeAndEncode(t, p, conn, tok)
			}
			rest = rest[adv:]
		}
	}
	decodeAndEncode(t, p, &protocols.Conn{}, data) // Decode must survive unsplit input too
	return frames
}

// Recognized is the shared port's promise, checked in every protocol's
// split-and-decode fuzz target: when p says Mine for head, Split cuts a
// frame from it (not an error: the shared port would hand the connection
// over only to have it closed) and Decode takes that frame on a new
// connection as a type it knows. It returns the decoded result and true
// when p said Mine, for protocol-specific checks (a checksum that holds).
func Recognized(t testing.TB, p protocols.Stream, head []byte) (protocols.Result, bool) {
	t.Helper()
	r, ok := p.(protocols.Recognizer)
	if !ok || r.Recognize(head) != protocols.Mine {
		return protocols.Result{}, false
	}
	adv, tok, err := p.Split(head, false)
	if err != nil || adv == 0 || tok == nil {
		t.Fatalf("Recognize(%q) = Mine, but Split = %d, %q, %v", head, adv, tok, err)
	}
	res, err := p.Decode(&protocols.Conn{}, tok)
	if err != nil || res.Unsupported != "" {
		t.Fatalf("Recognize(%q) = Mine, but Decode(%q) = %+v, %v", head, tok, res, err)
	}
	return res, true
}

// decodeAndEncode decodes frame on conn and, when it decodes, checks the
// positions and encodes every listed command on the resulting state.
func decodeAndEncode(t testing.TB, p protocols.Stream, conn *protocols.Conn, frame []byte) {
	t.Helper()
	res, err := p.Decode(conn, frame)
	if err != nil {
		return
	}
	Storable(t, p.Name(), res, frame)
	if res.UniqueID != "" {
		conn.UniqueID = res.UniqueID
	}
	c := *conn
	if c.UniqueID == "" {
		c.UniqueID = "1" // a device id every protocol accepts
	}
	for _, typ := range p.CommandTypes() {
		if _, err := p.Encode(&c, &model.Command{Type: typ}); err != nil && !errors.Is(err, model.ErrInvalid) {
			t.Fatalf("after %q, Encode(%s) = %v; want nil or app.ErrInvalid", frame, typ, err)
		}
	}
}

// Storable fails t unless every position of res can be stored: not nil,
// named after protocol, with an attribute map, on the globe, and JSON
// encodable (no NaN or infinite values).
func Storable(t testing.TB, protocol string, res protocols.Result, input []byte) {
	t.Helper()
	for _, pos := range res.Positions {
		if pos == nil || pos.Protocol != protocol || pos.Attributes == nil ||
			!(pos.Latitude >= -90 && pos.Latitude <= 90) || !(pos.Longitude >= -180 && pos.Longitude <= 180) {
			t.Fatalf("bad position %+v from %q", pos, input)
		}
		if _, err := json.Marshal(pos); err != nil {
			t.Fatalf("position from %q does not marshal: %v", input, err)
		}
	}
}
