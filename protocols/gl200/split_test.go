package gl200

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// Frames of each framing, from the shared samples.
var (
	textFRI   = shared[16].frame // +RESP:GTFRI ... $
	textHBD   = shared[51].frame // +ACK:GTHBD without its '$'
	binaryRSP = shared[57].frame // +RSP
	binaryNew = shared[55].frame // second byte 0
)

func TestSplitStream(t *testing.T) {
	fri, hbd := textFRI, textHBD+"$"
	rsp := string(prototest.Unhex(t, binaryRSP))
	rec := string(prototest.Unhex(t, binaryNew))
	tests := []struct {
		name, stream string
		want         []string
	}{
		{"merged", textFRI + hbd + rsp + rec + textFRI, []string{fri, hbd, rsp, rec, fri}},
		{"garbage between frames", "\r\njunk" + textFRI + "\x00\x01" + rsp + "$$" + textHBD + "\x00",
			[]string{fri, rsp, textHBD + "\x00"}},
		{"NUL ends a text message", textHBD + "\x00" + textFRI, []string{textHBD + "\x00", fri}},
		{"binary length too small skipped", "+RSP\x03\x00\x00\x00\x00\x00\x05" + textFRI, []string{fri}},
		{"unterminated tail dropped", textFRI + "+RESP:GTFRI,1A0102", []string{fri}},
		{"only garbage", "no frames here", nil},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { prototest.SplitStream(t, New().Split, 0, tt.stream, tt.want) })
	}
}

// Every proper prefix of a frame asks for more (TestSharedFrames cuts the
// whole ones).
func TestSplitCut(t *testing.T) {
	for _, s := range shared {
		prototest.AsksForMore(t, New().Split, s.wire(t))
	}
}

// A text message with no '$' within maxText bytes is skipped, not waited
// for forever.
func TestSplitOversize(t *testing.T) {
	stream := "+RESP:GTFRI," + strings.Repeat("1", maxText) + textFRI
	prototest.SplitStream(t, New().Split, 0, stream, []string{textFRI})
}

func TestRecognize(t *testing.T) {
	p := New()
	for i, s := range shared {
		if got := p.Recognize(s.wire(t)); got != protocols.Mine {
			t.Errorf("shared frame %d: %v, want Mine", i+1, got)
		}
		wire := s.wire(t)
		for n := 0; n < len(wire); n++ {
			if got := p.Recognize(wire[:n]); got != protocols.NeedMore {
				t.Fatalf("shared frame %d cut at %d: %v, want NeedMore", i+1, n, got)
			}
		}
	}
	for _, other := range []string{
		"+IN,862182050000000,123$",                            // not an @Track head
		"+RESP:GTFRI,1A0102,12345,,1,0,,20090214093254,11F0$", // no IMEI
		"+RESP:GTFRI,1A0102,135790246811220,,0,0,1$",          // no count number
		"$$\x00\x11\x12\x34\x56\xff\xff\xff\xff\x99\x55",      // Meitrack/Meiligao
		"*HQ,865205030330012,V1,145452,A,2240.55181,N,11358.32389,E,0.00,0.00,100815,FFFFFBFF#",
		"#L#865205030330012;NA\r\n",
		"(027045009305BP05355227045009305)",
		"\x78\x78\x0d\x01\x08\x64\x71\x70\x03\x28\x35\x81\x00\x09\x3f\x04\x0d\x0a",
	} {
		if got := p.Recognize([]byte(other)); got != protocols.NotMine {
			t.Errorf("Recognize(%q) = %v, want NotMine", other, got)
		}
	}
}

func TestAcks(t *testing.T) {
	p := New()
	// A heartbeat is answered at once, with no data to store.
	res, err := p.Decode(&protocols.Conn{}, []byte(textHBD))
	if err != nil || string(res.Reply) != "+SACK:GTHBD,1A0401,11F0$" || res.Ack != nil || len(res.Positions) > 0 {
		t.Errorf("heartbeat: %+v, %v", res, err)
	}
	// A report is acknowledged with its count number once stored.
	res, err = p.Decode(&protocols.Conn{}, []byte(textFRI))
	if err != nil || res.Reply != nil || string(res.Ack) != "+SACK:002C$" {
		t.Errorf("report: reply %q ack %q, %v", res.Reply, res.Ack, err)
	}
	// A report type fleetd does not decode gets no answer.
	res, err = p.Decode(&protocols.Conn{}, []byte("+RESP:GTXYZ,1A0102,135790246811220,,abc,20090214093254,11F0"))
	if err != nil || res.Unsupported == "" || res.Ack != nil || res.Reply != nil || res.UniqueID != "135790246811220" {
		t.Errorf("unknown type: %+v, %v", res, err)
	}
	// Binary reports are not answered.
	res, err = p.Decode(&protocols.Conn{}, prototest.Unhex(t, binaryRSP))
	if err != nil || res.Ack != nil || res.Reply != nil {
		t.Errorf("binary: %+v, %v", res, err)
	}
}

func TestDecodeRejects(t *testing.T) {
	prototest.DecodeRejects(t, New().Decode, nil,
		"+RESP:GTFRI",
		"GTFRI,1A0102,135790246811220,,11F0",
		"+RESP:GTFRI,1A0102,135790246811220,,0,0,1,1,0.0,0,0.0,181.000000,31.222073,20090214013254,0460,0000,18d8,6141,00,,20090214093254,11F0",
		"+RESP:GTERI,060800,861074023677175,,00000002,12351,10,1,1",
		"+RESP:GTIGN,BD0221,861778061565387,CV200,,0,140944,0,0.0,358,17.6,-2.223488,51.882342,2025122202012X,0234,0015,6093,000F830E,,,5810.9,20251222070035,C60E",
	)
}
