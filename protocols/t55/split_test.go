package t55

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestSplitStream(t *testing.T) {
	tests := []struct {
		name, stream string
		want         []string
	}{
		{"CRLF", strings.Join(shared, "\r\n") + "\r\n", withEnds(shared, "\r\n")},
		{"LF", strings.Join(shared, "\n") + "\n", withEnds(shared, "\n")},
		{"blank lines between", "\r\n\r\n" + framePGID + "\n\n\r\n" + frameRMC + "\r\n", []string{framePGID + "\n", frameRMC + "\r\n"}},
		{"last line without its end", framePGID + "\r\n" + frameRMC, []string{framePGID + "\r\n", frameRMC}},
		{"empty", "", nil},
		{"only line ends", "\r\n\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { prototest.SplitStream(t, New().Split, maxLine+2, tt.stream, tt.want) })
	}
}

func withEnds(lines []string, end string) []string {
	var out []string
	for _, l := range lines {
		out = append(out, l+end)
	}
	return out
}

func TestSplitCutAnywhere(t *testing.T) {
	for _, frame := range shared {
		prototest.AsksForMore(t, New().Split, []byte(frame+"\r\n"))
		prototest.OneFrame(t, New().Split, []byte(frame+"\r\n"))
	}
}

func TestSplitOversize(t *testing.T) {
	prototest.SplitFails(t, New().Split, 4*maxLine, framePGID+"\n"+strings.Repeat("1", maxLine+1)+"\n", ErrLineTooLong,
		[]string{framePGID + "\n"})
	line := "$" + strings.Repeat("1", maxLine-1) + "\r\n"
	prototest.SplitStream(t, New().Split, 4*maxLine, line, []string{line})
}

func TestRecognize(t *testing.T) {
	p := New()
	mine := []string{frameSIWMDID, frameDEVID, frameIOP, frameIDRMC, frameIMEIEq, framePGID, framePCPTI, frameIMEI, frameRMC,
		frameCONNECT, "QZE,868994033976700,35,28062020,113553,22.13673,114.57263,0,22,A,0",
		"$GPTXT,NET,1003,A1,-53,232 01*77", "$TRCCR,20140111000000.000,A,60.000000,60.000000,0.00,0.00,0.00,50,*3a"}
	for _, line := range mine {
		for _, end := range []string{"\r\n", "\n"} {
			if got := p.Recognize([]byte(line + end)); got != protocols.Mine {
				t.Errorf("%q: %v, want Mine", line+end, got)
			}
		}
		for n := range len(line) + 1 {
			if got := p.Recognize([]byte(line[:n])); got != protocols.NeedMore {
				t.Errorf("%q: %v, want NeedMore", line[:n], got)
			}
		}
	}
	notMine := []string{
		frameGGA + "\r\n",    // a wrong checksum
		frameIDGGA + "\r\n",  // a wrong checksum
		frameHexID + "\r\n",  // a bare number: any protocol's
		frameFID + "\r\n",    // no checksum
		frameWMCSAlrm + "\n", // no checksum
		"$GPRMC,082350.000,A,5355.0314,N,01044.1271,E,26.20,184.27,080518,,\r\n",   // no checksum
		"$GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00*74\r\n", // not decoded
		"$$\x00\x11\xff\xff\xff\xff\x99\x99\x55\x00\x00\x60\x6f\x01\x02",           // meiligao
		"$MGV002,013777007536434,,R,010216,112005,A,2455.5275,S,06740.8155,W,00,05,00,000.3,000.00,00.00,00,,,,,,,,,,,*\r\n",
		"#L#866795030000000;NA\r\n", // wialon
		"(027045009305BP05355227045009305,{413,2,30073,16724})",
		"IWAP00355932600077007,8901240204123656505f,310240202365650#", // trv
		"[SG*8800000015*0002*LK]",
		"\x00\x0f356307042441013",
		"IMEI 35146710870000\r\n",
		frameCONNECT + strings.Repeat(",0", maxLine/2) + "\r\n", // decodes, but longer than Split takes
	}
	for _, head := range notMine {
		if got := p.Recognize([]byte(head)); got != protocols.NotMine {
			t.Errorf("%q: %v, want NotMine", head, got)
		}
	}
}
