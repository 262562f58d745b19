package eelink

import (
	"encoding/binary"
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestRecognize(t *testing.T) {
	p := New()
	for _, f := range streamFrames {
		b := prototest.Unhex(t, f)
		if got := p.Recognize(b); got != protocols.Mine {
			t.Errorf("Recognize(%s) = %v, want Mine", f, got)
		}
		for n := range len(b) {
			if got := p.Recognize(b[:n]); got != protocols.NeedMore {
				t.Errorf("Recognize(%x) = %v, want NeedMore", b[:n], got)
			}
		}
	}
	for _, f := range []string{udpLogin, udpNormal} {
		if !p.RecognizeDatagram(prototest.Unhex(t, f)) {
			t.Errorf("RecognizeDatagram(%s) = false, want true", f)
		}
	}
	bad := prototest.Unhex(t, udpLogin)
	bad[5] ^= 1
	if p.RecognizeDatagram(bad) {
		t.Errorf("RecognizeDatagram(%x) = true for a datagram whose checksum does not match", bad)
	}
	// An EL datagram whose IMEI holds 67 67 (352544071676771): on a
	// stream, Split takes that for a packet's start and waits for its
	// 26 KB.
	imei6767 := prototest.Unhex(t, udpLogin)
	imei6767[12] = 0x67
	binary.BigEndian.PutUint16(imei6767[4:], checksum(imei6767[6:]))
	if !p.RecognizeDatagram(imei6767) {
		t.Errorf("RecognizeDatagram(%x) = false, want true", imei6767)
	}
	others := []string{
		// EL datagrams are UDP only: Split does not cut them from a stream.
		string(prototest.Unhex(t, udpLogin)), string(imei6767),
		string(bad), // an EL datagram whose checksum does not match
		string(prototest.Unhex(t, "676781000400010102")),                   // a type fleetd does not decode
		string(prototest.Unhex(t, "78780D01086471700328358100093F040D0A")), // GT06
		string(prototest.Unhex(t, "000f313233343536373839303132333435")),   // Teltonika
		"(087073005534BP00HSO)", "$$A138,862170010187175,AAA,35*3F\r\n", "ELECTRIC",
	}
	for _, f := range others {
		if got := p.Recognize([]byte(f)); got != protocols.NotMine {
			t.Errorf("Recognize(%q) = %v, want NotMine", f, got)
		}
	}
}
