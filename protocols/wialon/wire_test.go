package wialon

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
	"github.com/fleetd/fleetd/protocols/sockettest"
)

func fmtCRC(v uint16) string { return fmt.Sprintf("%04X", v) }

func TestSplit(t *testing.T) {
	all := []string{loginV2, shortV2, ping, data1, blackBox}
	stream := "\r\n" + strings.Join(all, "\r\n") + "\r\n"
	var want []string
	for _, f := range all {
		want = append(want, f+"\r\n")
	}
	prototest.SplitStream(t, New().Split, 0, stream, want)
	prototest.SplitStream(t, New().Split, 0, "junk\n\r\n"+ping+"\n"+data1, []string{"junk\n", ping + "\n", data1})
	prototest.SplitFails(t, New().Split, 2*MaxPacket, strings.Repeat("x", MaxPacket+10), ErrPacketTooLong, nil)
	for _, f := range all {
		prototest.AsksForMore(t, New().Split, []byte(f+"\r\n"))
		prototest.OneFrame(t, New().Split, []byte(f+"\r\n"))
	}
}

func TestEncode(t *testing.T) {
	p := New()
	conn := &protocols.Conn{UniqueID: "42001300083"}
	prototest.Encodes(t, p, conn, []prototest.EncodeCase{
		{Type: "rebootDevice", Want: "reboot\r\n"},
		{Type: "deviceIdentification", Want: "VER?\r\n"},
		{Type: "sendUssd", Attributes: model.Attributes{"phone": "*100#"}, Want: "USSD:*100#\r\n"},
		{Type: "outputControl", Attributes: model.Attributes{"index": 1.0, "data": "1"}, Want: "L1=1\r\n"},
		{Type: "message", Attributes: model.Attributes{"message": "hello"}, Want: "#M#hello\r\n"},
		{Type: "custom", Attributes: model.Attributes{"data": "#M#text\r\n"}, Want: "#M#text\r\n"},
	})
	v2conn := &protocols.Conn{UniqueID: "42001300083", State: &session{v2: true}}
	prototest.Encodes(t, p, v2conn, []prototest.EncodeCase{
		{Type: "message", Attributes: model.Attributes{"message": "hi"}, Want: "#M#hi;" + fmtCRC(crc16("hi;")) + "\r\n"},
	})
	prototest.EncodeRejects(t, p, conn, []prototest.RejectCase{
		{Name: "unsupported", Command: model.Command{Type: "engineStop"}},
		{Name: "no phone", Command: model.Command{Type: "sendUssd"}},
		{Name: "no message", Command: model.Command{Type: "message"}},
		{Name: "no index", Command: model.Command{Type: "outputControl", Attributes: model.Attributes{"data": "1"}}},
		{Name: "negative index", Command: model.Command{Type: "outputControl", Attributes: model.Attributes{"index": -1.0, "data": "1"}}},
	})
	want := []string{"custom", "message", "outputControl", "sendUssd", "deviceIdentification", "rebootDevice"}
	if got := p.CommandTypes(); !slices.Equal(got, want) {
		t.Errorf("CommandTypes = %q, want %q", got, want)
	}
}

func TestRecognize(t *testing.T) {
	p := New()
	for _, f := range []string{loginV2, shortV2, ping, data1, shortUDP, data2, blackBox, noFix, "2.0;99999999#D#101118;061143;0756.0930;N;12338.6403;E;18.223;99.766;-4.000;10;0.800;NA;NA;NA;NA;101_521347:1:521249;" + fmtCRC(crc16("101118;061143;0756.0930;N;12338.6403;E;18.223;99.766;-4.000;10;0.800;NA;NA;NA;NA;101_521347:1:521249;"))} {
		wire := []byte(f + "\r\n")
		if got := p.Recognize(wire); got != protocols.Mine {
			t.Errorf("Recognize(%q) = %v, want Mine", f, got)
		}
		for n := 1; n < len(wire)-1; n++ {
			if got := p.Recognize(wire[:n]); got != protocols.NeedMore {
				t.Fatalf("Recognize(%q) = %v, want NeedMore", wire[:n], got)
			}
		}
	}
	notMine := []string{
		"*HQ,4210051415,V1,164549,A,0956.3869,N,08406.7068,W,000.00,000,221215,FFFFFBFF#", // h02
		"##,imei:359586015829802,A;", // gps103
		"#TEST#\r\n",                 // unknown type
		"#D#1;2;3\r\n",               // not a record
		"$$\x00\x10123456",           // meitrack
		"(087073005534BP00HSO)",      // tk103
		"ST300STT;205589913;05;527;20170304;02:21:33;be139\r", // suntech
		"\x78\x78\x0d\x01", // gt06
		"#X",
		data1 + strings.Repeat(",x:1:1", MaxPacket/6) + "\r\n", // decodes, but longer than Split takes
	}
	for _, f := range notMine {
		if got := p.Recognize([]byte(f)); got != protocols.NotMine {
			t.Errorf("Recognize(%q) = %v, want NotMine", f, got)
		}
	}
}

// TestSocket sends every shared frame over TCP after a login, and the
// UDP form with the id in front, and checks answers and stored values.
func TestSocket(t *testing.T) {
	e := sockettest.Start(t, New())
	// The sample login's CRC is wrong: the device is marked to have it
	// taken all the same.
	d := e.Device("42001300083", "", model.Attributes{"ignoreChecksum": true})
	c := e.Dial()
	c.Send([]byte(loginV2 + "\r\n"))
	c.Expect([]byte("#AL#1\r\n"))
	c.Send([]byte(shortV2 + "\r\n"))
	c.Expect([]byte("#ASD#1\r\n"))
	c.Send([]byte(ping + "\r\n"))
	c.Expect([]byte("#AP#\r\n"))
	c.Send([]byte(data1 + "\r\n"))
	c.Expect([]byte("#AD#1\r\n"))
	c.Send([]byte(data2 + "\r\n"))
	c.Expect([]byte("#AD#1\r\n"))
	c.Send([]byte(blackBox + "\r\n"))
	c.Expect([]byte("#AB#2\r\n"))
	c.Send([]byte(noFix + "\r\n"))
	c.Expect([]byte("#AD#1\r\n"))
	ps := e.WaitStored(d.ID, 6)
	kn := 1e-6
	sockettest.Check(t, ps[0], sockettest.Want{Time: at("2024-09-30 15:42:45"), Lat: 55.905834, Lon: 36.744507, Speed: 2.92 * kph, SpeedTolerance: kn})
	sockettest.Check(t, ps[1], sockettest.Want{Time: at("2016-12-15 14:02:03"), Valid: true, Lat: 53.209919, Lon: 48.506306,
		Speed: 53 * kph, Course: 273, SpeedTolerance: kn, Attributes: model.Attributes{"sat": 10, "board": 12.81, "accum": 4.28, "evid": 1}})
	sockettest.Check(t, ps[2], sockettest.Want{Time: at("2014-01-19 05:13:12"), Valid: true, Lat: 44.99493, Lon: 41.099883,
		Speed: 35 * kph, Course: 306, SpeedTolerance: kn, Attributes: model.Attributes{"balance": 12123, "sats_gps": 9, "input": 452986639}})
	sockettest.Check(t, ps[3], sockettest.Want{Time: at("2014-09-08 07:32:35"), Valid: true, Lat: 50.458438, Lon: 30.436554,
		Speed: 0.7 * kph, SpeedTolerance: kn, Attributes: model.Attributes{"archive": true, "батарея": "100 %"}})
	sockettest.Check(t, ps[4], sockettest.Want{Time: at("2014-09-08 07:34:20"), Valid: true, Lat: 50.458474, Lon: 30.436476,
		Speed: 1.996 * kph, Course: 292.54, SpeedTolerance: kn, Attributes: model.Attributes{"archive": true}})
	// No fix: the last location is copied in.
	sockettest.Check(t, ps[5], sockettest.Want{Outdated: true, Valid: false, Lat: 50.458474, Lon: 30.436476,
		Attributes: model.Attributes{"deviceTemp": 18, "batteryLevel": 99}})

	// A data frame before any login names no device: neither stored nor answered.
	c2 := e.Dial()
	c2.Send([]byte(data1 + "\r\n"))
	c2.Silent(200 * time.Millisecond)

	u := e.Device("99999999", "", nil)
	udp := e.DialUDP()
	udp.Send([]byte(shortUDP + "\r\n"))
	udp.Expect([]byte("#ASD#1\r\n"))
	up := e.WaitStored(u.ID, 1)
	sockettest.Check(t, up[0], sockettest.Want{Time: at("2013-04-27 20:56:01"), Valid: true, Lat: 55.74338, Lon: 37.66139,
		Speed: kph, Course: 2, SpeedTolerance: kn, Attributes: model.Attributes{"sat": 4}})
}

func TestDatagram(t *testing.T) {
	p := testProtocol()
	res, err := p.DecodeDatagram(&protocols.Conn{}, []byte(shortUDP+"\r\n99999999#P#\r\n"))
	if err != nil || res.UniqueID != "99999999" || len(res.Positions) != 1 || string(res.Ack) != "#ASD#1\r\n" || string(res.Reply) != "#AP#\r\n" {
		t.Errorf("DecodeDatagram = %+v, %v", res, err)
	}
	if _, err := p.DecodeDatagram(&protocols.Conn{}, []byte("1#P#\r\n2#P#")); err == nil {
		t.Error("a datagram naming two devices decodes")
	}
	if _, err := p.DecodeDatagram(&protocols.Conn{}, []byte("\r\n")); err == nil {
		t.Error("an empty datagram decodes")
	}
}

func FuzzSplitDecode(f *testing.F) {
	prototest.AddSeeds(f, loginV2+"\r\n"+shortV2+"\r\n", ping, data1, shortUDP, data2, blackBox+"\r\n", noFix, dataV2CRC, "#M#x;0000", "#B#"+shortV2[4:]+"|00")
	f.Fuzz(func(t *testing.T, data []byte) {
		p := testProtocol()
		prototest.SplitDecode(t, p, data)
		prototest.Recognized(t, p, data)
	})
}

func FuzzDatagram(f *testing.F) {
	prototest.AddSeeds(f, shortUDP, shortUDP+"\r\n99999999#P#\r\n", "2.0;1#B#"+shortV2[4:]+"|x", "1#M#hi")
	f.Fuzz(func(t *testing.T, data []byte) {
		if res, err := testProtocol().DecodeDatagram(&protocols.Conn{}, data); err == nil {
			prototest.Storable(t, Name, res, data)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	prototest.BenchDecode(b, testProtocol().Decode, []byte(data2))
}
