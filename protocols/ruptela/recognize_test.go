package ruptela

import (
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestRecognize(t *testing.T) {
	p := New()
	for _, f := range append(streamFrames, shortLengthAnswer, shortLengthDTCs) {
		b := prototest.Unhex(t, f)
		if got := p.Recognize(b); got != protocols.Mine {
			t.Errorf("%.40s…: %v, want Mine", f, got)
		}
	}
	for _, f := range streamFrames {
		b := prototest.Unhex(t, f)
		for n := range min(len(b), 200) {
			if got := p.Recognize(b[:n]); got != protocols.NeedMore {
				t.Fatalf("%.40s… cut at %d: %v, want NeedMore", f, n, got)
			}
		}
	}
	notMine := map[string]string{
		// Teltonika's IMEI handshake and AVL packet: 2-byte length too.
		"teltonika handshake": "000f333536333037303432343431303133",
		"teltonika AVL":       "000000000000003608010000016b40d8ea30010000000000000000000000000000000105021503010101425e0f01f10000601a014e0000000000000000010000c7cf",
		"gt06 login":          "78780d01012345678901234500018cdd0d0a",
		"castel heartbeat":    "40401f00043130303131313235323939383700000000000000100303320d0a",
		"bad CRC":             recordsFrame[:len(recordsFrame)-4] + "0000",
		"unknown command":     hexOf(deviceFrame(testIMEI, 99, "00")),
		"text":                "2a48512c3836353230353033353333313836332c56312c",
	}
	for name, h := range notMine {
		if got := p.Recognize(prototest.Unhex(t, h)); got != protocols.NotMine {
			t.Errorf("%s: %v, want NotMine", name, got)
		}
	}
	// Well framed, CRC right, records cut short: not a frame Decode takes.
	if got := p.Recognize(deviceFrame(testIMEI, 1, "0001")); got != protocols.NotMine {
		t.Errorf("records cut short: %v, want NotMine", got)
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}
