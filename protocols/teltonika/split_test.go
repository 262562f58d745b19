package teltonika

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

var streamFrames = []string{imeiFrame, codec8Frame, pingFrame, noFixFrame, movingFrame,
	strings.ToLower(answerFrame), codec8EFrame,
	eyeTagsFrame, beaconTagsFrame, beaconTags16Frame, bleSensorFrame, beaconListFrame, vinFrame, crashFrame,
	alarmFrame, canFrame, iButtonFrame, gh3000Frame, gh3000CellFrame, gtslFrame, axleFrame, cameraFrame, sixteenFrame,
	codec14Frame}

func TestSplitStreams(t *testing.T) {
	frames := prototest.UnhexStrings(t, streamFrames...)
	// text, zeros, a bad IMEI, a bad preamble
	garbage := string(prototest.Unhex(t, "474554202f0d0a"+"0000"+"000a4142"+"00000001"))
	tests := []struct {
		name, stream string
		want         []string
	}{
		{"merged", strings.Join(frames, ""), frames},
		{"garbage before and between", garbage + strings.Join(frames, garbage), frames},
		// Traccar's frame-decoder sample: a ping glued to the handshake.
		{"ping then imei", string(prototest.Unhex(t, "FF000F313233343536373839303132333435")),
			prototest.UnhexStrings(t, "ff", imeiFrame)},
		{"unfinished frame at eof", string(prototest.Unhex(t, imeiFrame+codec8Frame[:40])),
			prototest.UnhexStrings(t, imeiFrame)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { prototest.SplitStream(t, New().Split, MaxFrame, tt.stream, tt.want) })
	}
}

func TestSplitOversize(t *testing.T) {
	imei := string(prototest.Unhex(t, imeiFrame))
	prototest.SplitFails(t, New().Split, MaxFrame, imei+string(prototest.Unhex(t, "0000000000004000"+"08")),
		errFrameTooLong, []string{imei})
}

func TestSplitAsksForMore(t *testing.T) {
	prototest.AsksForMore(t, New().Split, prototest.Unhex(t, codec8Frame))
}
