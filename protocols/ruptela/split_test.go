package ruptela

import (
	"slices"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

var streamFrames = []string{identFrame, extRecordsFrame, recordsFrame, smsAnswerFrame, filePartFrame, twoRecordsFrame}

func TestSplit(t *testing.T) {
	p := New()
	frames := prototest.UnhexStrings(t, streamFrames...)
	var stream string
	for _, f := range frames {
		stream += f
	}
	prototest.SplitStream(t, p.Split, MaxFrame, stream, frames)
	// Garbage before and between frames is skipped: bytes that cannot be a
	// length, a length with a non-IMEI after it, a truncated frame.
	garbage := "\xff\xff\x00\x05\x00\x0f\x01" + frames[0] + "\x00\x20\x00\x05" + frames[2]
	prototest.SplitStream(t, p.Split, MaxFrame, garbage, []string{frames[0], frames[2]})
	for _, f := range frames {
		prototest.AsksForMore(t, p.Split, []byte(f))
	}
}

// The two captures with a short length field are cut where their CRC
// ends when they arrive whole (as a device's small frame does, in one
// segment), also when another frame follows. Split cannot wait for bytes
// past a declared end it cannot confirm: a frame with a bad CRC would
// then never reach the inbox, so one read in pieces is cut at its
// declared length and refused for its checksum.
func TestSplitShortLength(t *testing.T) {
	frames := prototest.UnhexStrings(t, shortLengthAnswer, shortLengthDTCs, recordsFrame)
	got, err := prototest.ScanFrames(New().Split, strings.NewReader(frames[0]+frames[1]+frames[2]), MaxFrame)
	if err != nil || !slices.Equal(prototest.Strings(got), frames) {
		t.Errorf("frames %q, %v; want %q", got, err, frames)
	}
}

// A frame whose CRC matches nowhere is cut at its declared length and
// flagged by Decode; the stream goes on after it.
func TestSplitBadCRC(t *testing.T) {
	frames := prototest.UnhexStrings(t, recordsFrame, identFrame)
	bad := []byte(frames[0])
	bad[len(bad)-2] ^= 0xff
	prototest.SplitStream(t, New().Split, MaxFrame, string(bad)+frames[1], []string{string(bad), frames[1]})
	res, err := New().Decode(&protocols.Conn{}, bad)
	if err != nil || !res.ChecksumError {
		t.Errorf("bad CRC: %+v, %v", res, err)
	}
}

func TestOwnFramesSplit(t *testing.T) {
	for _, f := range [][]byte{recordsAck, dtcsAck, response(cmdIdentify, []byte{1})} {
		// Server frames have no IMEI: they must not be taken for device
		// frames by a device-side reader of this package's Split.
		if adv, tok, _ := New().Split(f, true); tok != nil {
			t.Errorf("server frame %x split as a device frame (%d)", f, adv)
		}
	}
}
