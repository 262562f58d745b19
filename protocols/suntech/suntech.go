// Package suntech implements the Suntech tracker protocols (ST300, ST340,
// ST600, ST4300/ST4xx, ST910 and the "universal" ST8/ST4940 firmware, per
// the makers' operation manuals, chapter "Reporting to server"): text
// reports "<hdr>;<dev_id>;...\r" (legacy "ST300STT", "SA200EMG", ...;
// universal "STT", "ALT", "UEX", ...), the binary "zip" form (0x02) and the
// universal binary form (0x81/0x82). Over TCP the device expects no
// answer: reports are stored and nothing is sent, as Traccar does.
package suntech

import (
	"errors"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Name is the protocol name stored in positions.
const Name = "suntech"

// Protocol is the Suntech codec. The per-connection state (which family
// the device speaks, for commands) lives in protocols.Conn.State.
type Protocol struct {
	// now stamps reports that carry no time; tests pin it.
	now protocols.Clock
}

var (
	_ protocols.Stream     = (*Protocol)(nil)
	_ protocols.Recognizer = (*Protocol)(nil)
)

// New returns the Suntech codec.
func New() *Protocol { return &Protocol{} }

// Name implements protocols.Stream.
func (p *Protocol) Name() string { return Name }

// session remembers how the device speaks, so commands go out in its
// form: universal ("CMD;<id>;03;..."), or legacy with the model prefix of
// its last report ("ST300CMD;<id>;02;...").
type session struct {
	universal bool
	prefix    string // e.g. "ST300"; "" until a legacy report names it
}

func state(c *protocols.Conn) *session {
	if s, ok := c.State.(*session); ok {
		return s
	}
	s := &session{}
	c.State = s
	return s
}

const knotsPerKph = 1 / 1.852

func (p *Protocol) newPosition() *model.Position {
	return &model.Position{Protocol: Name, Attributes: model.Attributes{}}
}

// outdated is a position without a location (the ingest copies the last
// one), at the device's time when known.
func (p *Protocol) outdated(t time.Time) *model.Position {
	pos := p.newPosition()
	pos.Outdated = true
	if t.IsZero() {
		t = p.now.Now().Truncate(time.Second)
	}
	pos.DeviceTime, pos.FixTime = t, t
	return pos
}

var errEmpty = errors.New("suntech: empty frame")

// Decode decodes one frame returned by Split.
func (p *Protocol) Decode(c *protocols.Conn, frame []byte) (protocols.Result, error) {
	if len(frame) == 0 {
		return protocols.Result{}, errEmpty
	}
	switch {
	case frame[0] == zipHeader:
		return p.decodeZip(frame)
	case len(frame) > 1 && frame[1] == 0 && frame[0] >= 0x80:
		state(c).universal = true
		return p.decodeBinary(frame)
	}
	text := strings.TrimRight(string(frame), "\r")
	if text == "-Error" {
		// The device's answer to a command it could not take.
		return protocols.Result{CommandResult: text}, nil
	}
	f := strings.Split(text, ";")
	hdr := f[0]
	switch {
	case hdr == "CRR":
		// Crash reports come in numbered binary chunks of accelerometer
		// samples; Traccar's own test of them is disabled.
		res := protocols.Result{Unsupported: "crash report (CRR) not decoded"}
		if len(f) > 1 {
			res.UniqueID, _ = deviceID(f[1])
		}
		return res, nil
	case len(hdr) < 5:
		state(c).universal = true
		return p.decodeUniversal(f)
	case strings.HasSuffix(hdr, "HTE"):
		return p.decodeTravel(f)
	case strings.HasPrefix(hdr, "ST9"):
		return p.decode9(f)
	}
	if !legacyHeader(hdr) {
		return protocols.Result{}, errors.New("suntech: not a report header")
	}
	s := state(c)
	s.universal, s.prefix = false, hdr[:len(hdr)-3]
	if strings.HasPrefix(hdr, "ST4") {
		return p.decode4(f)
	}
	return p.decodeLegacy(f)
}

// legacyHeader checks "<model><type>": "ST300STT", "SA200ALV", "ST4300CMD".
func legacyHeader(h string) bool {
	if len(h) < 8 || len(h) > 10 || (h[:2] != "ST" && h[:2] != "SA") {
		return false
	}
	for i := 2; i < len(h); i++ {
		c := h[i]
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// deviceID checks a text report's device id: digits (legacy ids are 6 or
// 9 of them, universal ones 10).
func deviceID(s string) (string, error) {
	if s == "" || len(s) > 20 {
		return "", errors.New("suntech: bad device id")
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return "", errors.New("suntech: bad device id")
		}
	}
	return s, nil
}

// finish checks the positions and builds the result.
func finish(id string, positions ...*model.Position) (protocols.Result, error) {
	res := protocols.Result{UniqueID: id}
	for _, pos := range positions {
		if err := protocols.CheckFix(pos); err != nil {
			return protocols.Result{}, err
		}
	}
	res.Positions = positions
	return res, nil
}
