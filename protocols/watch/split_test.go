package watch

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

// Binary content with a raw ']' (declared length 6) and with escapes
// (declared length 0x0e counts unescaped bytes).
const (
	rawBracket = "[SG*8800000015*0006*TK,\x01]\x02]"
	escaped    = "[CS*1234567890*000e*TK,#!AMR}\x01}\x02}\x03}\x04}\x05\xff]"
)

func TestSplit(t *testing.T) {
	cases := []struct {
		name   string
		stream string
		want   []string
	}{
		{"merged", frameLK + frameUD + frameZJ, []string{frameLK, frameUD, frameZJ}},
		{"garbage before and between", "\r\n\x00junk" + frameLK + "]]x\n" + frameAL, []string{frameLK, frameAL}},
		{"not a header", "[SG]" + "[S*1*0002*LK]" + "[SG*1*zz*LK]" + frameTKQ, []string{frameTKQ}},
		{"truncated frame before another", "[SG*8800000015*0002*L" + frameLK, []string{frameLK}},
		{"incomplete frame at EOF", frameLK + "[SG*8800000015*0087*UD,22", []string{frameLK}},
		{"raw bracket in binary content", rawBracket + frameLK, []string{rawBracket, frameLK}},
		{"escaped binary content", escaped + frameLK, []string{escaped, frameLK}},
		{"declared length too short", frameUD + frameLK, []string{frameUD, frameLK}},
		{"declared length too long", "[SG*8800000015*0010*LK]" + frameLK, []string{"[SG*8800000015*0010*LK]", frameLK}},
		{"decoded message types", frameLK3 + frameConfig + frameBPHRT + frameBTemp + frameOxygen + frameTK + framePLS,
			[]string{frameLK3, frameConfig, frameBPHRT, frameBTemp, frameOxygen, frameTK, framePLS}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { prototest.SplitStream(t, New().Split, MaxFrameSize, tc.stream, tc.want) })
	}
}

// TestSplitWaitsForBinary checks that a binary frame cut after a raw ']'
// is not returned early.
func TestSplitWaitsForBinary(t *testing.T) {
	prototest.AsksForMore(t, New().Split, []byte(rawBracket))
}

func TestSplitOversize(t *testing.T) {
	stream := frameLK + "[SG*8800000015*0002*" + strings.Repeat("x", MaxFrameSize)
	prototest.SplitFails(t, New().Split, MaxFrameSize, stream, ErrFrameTooLong, []string{frameLK})
}

// TestSplitLongestFrame accepts the longest frame the length field allows.
func TestSplitLongestFrame(t *testing.T) {
	frame := "[3G*358839237678820*ffff*TK," + strings.Repeat("}\x03", 0xffff-3) + "]"
	frames, err := prototest.ScanFrames(New().Split, strings.NewReader(frame+frameLK), MaxFrameSize)
	if got := prototest.Strings(frames); err != nil || len(got) != 2 || got[0] != frame {
		t.Errorf("got %d frames, %v", len(got), err)
	}
}

// TestSplitVoiceChunks cuts a ZJ watch's six JXTK chunks, whose declared
// length counts escape pairs as two bytes, at the lengths their headers
// declare: the header (30 bytes), the content, the ']'.
func TestSplitVoiceChunks(t *testing.T) {
	stream := string(jxtkChunks(t))
	var want []string
	for _, length := range []int{0x439, 0x443, 0x430, 0x437, 0x433, 0xe5} {
		want = append(want, stream[:30+length+1])
		stream = stream[30+length+1:]
	}
	if stream != "" {
		t.Fatalf("%d bytes after the chunks", len(stream))
	}
	prototest.SplitStream(t, New().Split, MaxFrameSize, strings.Join(want, "")+frameLK, append(want, frameLK))
	// The last chunk is cut as soon as it is whole, not when more bytes
	// follow: the watch waits for its answer before sending anything else.
	for _, chunk := range want {
		prototest.OneFrame(t, New().Split, []byte(chunk))
	}
	prototest.AsksForMore(t, New().Split, []byte(want[5]))
}
