// Package protocols runs the device listeners and defines what a device
// protocol package provides: framing, decoding, replies and command encoding.
package protocols

import (
	"github.com/fleetd/fleetd/app/model"
)

// Conn is the per-connection state a decoder may keep between frames, such
// as the device identity learned from a login frame.
type Conn struct {
	// UniqueID is the device identifier once known (IMEI for most trackers).
	UniqueID string
	// Remote is the peer address, for logs and the unknown-device list.
	Remote string
	// Model is the registered device's model, as the operator set it: some
	// clones reuse a message type with another layout, told apart by it.
	Model string
	// State is owned by the protocol package (e.g. a protocol variant).
	State any
	// parts is the file being put together on the connection (Parts).
	parts *Parts
}

// Result is what one frame decodes to.
type Result struct {
	// UniqueID is set when the frame identifies the device (login, IMEI
	// handshake, or an id carried in every frame).
	UniqueID string
	// Positions decoded from the frame, in device order, with Protocol set
	// and DeviceID left 0 (the ingest resolves it from the uniqueId). A frame
	// without a location (status, heartbeat with data) yields a position with
	// Outdated true: the ingest copies the last known location into it, as
	// Traccar does. Times are UTC.
	Positions []*model.Position
	// Reply is written to the device at once (login/heartbeat answers that
	// do not acknowledge stored data).
	Reply []byte
	// Ack is written only after every position of Positions is durable.
	// With no positions it is written at once.
	Ack []byte
	// CommandResult is the device's answer to a command, if the frame is one.
	CommandResult string
	// ChecksumError is true when the frame's checksum did not match. The
	// decoder still decodes it, so the frame is identified; the listener
	// stores and answers it only for a device marked with the
	// ignoreChecksum attribute (firmware known to compute them wrong), and
	// otherwise puts it in the raw-frame inbox unanswered.
	ChecksumError bool
	// Unsupported, when set, says why a well-formed frame was not decoded
	// (a message type fleetd does not know, a layout it cannot place): the
	// frame gets no answer, so the device keeps its data and resends it,
	// and goes to the raw-frame inbox with this reason. UniqueID may still
	// be set, so the inbox entry names the device.
	Unsupported string
}

// Stream is a TCP (and optionally UDP) device protocol.
type Stream interface {
	// Name is the protocol name stored in Position.Protocol ("gt06").
	Name() string
	// Split is a bufio.SplitFunc over the connection's byte stream: it
	// returns whole frames, skips garbage between frames (advance > 0 with a
	// nil token) and must never panic or loop on any input.
	Split(data []byte, atEOF bool) (advance int, token []byte, err error)
	// Decode decodes one frame returned by Split.
	Decode(c *Conn, frame []byte) (Result, error)
	// CommandTypes lists the command types Encode supports (Traccar names:
	// "engineStop", "engineResume", "positionPeriodic", "custom", ...).
	CommandTypes() []string
	// Encode encodes a command for the device; an unsupported type returns
	// an error matching app.ErrInvalid.
	Encode(c *Conn, cmd *model.Command) ([]byte, error)
}

// Datagram is implemented by protocols that also listen on UDP, where each
// packet is self-contained (carries the device id) and answered on its own.
type Datagram interface {
	DecodeDatagram(c *Conn, packet []byte) (Result, error)
}

// FrameLimiter is implemented by protocols whose frames may be longer than
// the listener's default bound (watch voice and picture messages).
type FrameLimiter interface {
	MaxFrameSize() int
}

// Recognition is what the shared port (protocols.auto) makes of the first
// bytes of a connection or of a datagram, for one protocol.
type Recognition int

const (
	// NotMine: these bytes cannot begin a frame of the protocol.
	NotMine Recognition = iota
	// NeedMore: they may; more bytes are needed to tell.
	NeedMore
	// Mine: they begin a well-formed frame of the protocol, checked as
	// deep as it takes to tell it from every other protocol that shares
	// its first bytes (a checksum, a length that matches, a field layout),
	// never by a guess on the prefix alone.
	Mine
)

// Recognizer is implemented by every Stream protocol: the shared port
// hands a connection to the one protocol whose Recognize says Mine for
// its first bytes.
type Recognizer interface {
	// Recognize looks at head, the bytes a connection sent so far (or a
	// whole datagram), from its first byte. It must be cheap, never panic,
	// and say Mine only for bytes the protocol's Split and Decode take.
	Recognize(head []byte) Recognition
}
