package suntech

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
	"github.com/fleetd/fleetd/protocols/sockettest"
)

// textFrames are the shared text frames as they come on the wire.
var textFrames = []string{uexUniv, st4STT, altUniv, resUniv, bleUniv, bsaUniv, uexLegacy, st600STT, sttUniv, st300STT,
	alive, st9Alert, sa200STT, sa200EMG, sa200ALT, st9Loc, st9Emg, cmdRes, cmdError, st9Cell, st300EVT, travel}

func TestSplit(t *testing.T) {
	zip, bin := string(prototest.Unhex(t, zipHex)), string(prototest.Unhex(t, binaryHex))
	// A '\r' that ends the bytes read so far ends a report, as devices
	// send one and wait: a UEX report whose serial data ends "\r\n" is
	// whole only when that '\n' comes in the same read, as it does from a
	// device (Traccar cuts the same way).
	prototest.SplitStream(t, New().Split, 0, "", nil)
	frames, err := prototest.ScanFrames(New().Split, strings.NewReader(uexUniv+"\r"+alive+"\r"), 0)
	if got := prototest.Strings(frames); err != nil || !slices.Equal(got, []string{uexUniv + "\r", alive + "\r"}) {
		t.Errorf("UEX with serial data: %q, %v", got, err)
	}
	var want []string
	var stream strings.Builder
	for _, f := range textFrames[1:] {
		want = append(want, f+"\r")
		stream.WriteString(f + "\r")
	}
	want = append(want, zip, bin, alive+"\r")
	stream.WriteString(zip + bin + alive + "\r")
	prototest.SplitStream(t, New().Split, 0, stream.String(), want)
	// Garbage before and between reports is skipped.
	prototest.SplitStream(t, New().Split, 0, "\n\x00\xffjunk"+alive+"\r\x01"+zip+"\x85\x00", []string{alive + "\r", zip})
	prototest.SplitFails(t, New().Split, 2*MaxText, strings.Repeat("A", MaxText+10), ErrFrameTooLong, nil)
	for _, f := range []string{zip, bin} {
		prototest.AsksForMore(t, New().Split, []byte(f))
	}
	for _, f := range []string{zip, bin, alive + "\r", uexUniv + "\r"} {
		prototest.OneFrame(t, New().Split, []byte(f))
	}
}

func TestEncode(t *testing.T) {
	p := New()
	legacy := &protocols.Conn{UniqueID: "205589913"}
	if _, err := p.Decode(legacy, []byte(st300STT+"\r")); err != nil {
		t.Fatal(err)
	}
	prototest.Encodes(t, p, legacy, []prototest.EncodeCase{
		{Type: "rebootDevice", Want: "ST300CMD;205589913;02;Reboot\r"},
		{Type: "positionSingle", Want: "ST300CMD;205589913;02;StatusReq\r"},
		{Type: "engineStop", Want: "ST300CMD;205589913;02;Enable1\r"},
		{Type: "engineResume", Want: "ST300CMD;205589913;02;Disable1\r"},
		{Type: "alarmArm", Want: "ST300CMD;205589913;02;Enable2\r"},
		{Type: "alarmDisarm", Want: "ST300CMD;205589913;02;Disable2\r"},
		{Type: "outputControl", Attributes: model.Attributes{"index": 3.0, "data": "1"}, Want: "ST300CMD;205589913;02;Enable3\r"},
		{Type: "outputControl", Attributes: model.Attributes{"index": "2", "data": "0"}, Want: "ST300CMD;205589913;02;Disable2\r"},
		{Type: "custom", Attributes: model.Attributes{"data": "ST300CMD;205589913;02;Reset\r"}, Want: "ST300CMD;205589913;02;Reset\r"},
	})
	prototest.Encodes(t, p, &protocols.Conn{UniqueID: "317652"}, []prototest.EncodeCase{
		{Type: "rebootDevice", Want: "SA200CMD;317652;02;Reboot\r"},
	})
	universal := &protocols.Conn{UniqueID: "6009999006"}
	if _, err := p.Decode(universal, []byte(sttUniv+"\r")); err != nil {
		t.Fatal(err)
	}
	prototest.Encodes(t, p, universal, []prototest.EncodeCase{
		{Type: "rebootDevice", Want: "CMD;6009999006;03;03\r"},
		{Type: "positionSingle", Want: "CMD;6009999006;03;01\r"},
		{Type: "engineStop", Want: "CMD;6009999006;04;01\r"},
		{Type: "engineResume", Want: "CMD;6009999006;04;02\r"},
		{Type: "alarmArm", Want: "CMD;6009999006;04;03\r"},
		{Type: "alarmDisarm", Want: "CMD;6009999006;04;04\r"},
		{Type: "outputControl", Attributes: model.Attributes{"index": 3.0, "data": "1"}, Want: "CMD;6009999006;04;09\r"},
		{Type: "outputControl", Attributes: model.Attributes{"index": 2.0, "data": "0"}, Want: "CMD;6009999006;04;04\r"},
	})
	prototest.EncodeRejects(t, p, universal, []prototest.RejectCase{
		{Name: "unsupported", Command: model.Command{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 30.0}}},
		{Name: "output 4 (universal has 3)", Command: model.Command{Type: "outputControl", Attributes: model.Attributes{"index": 4.0, "data": "1"}}},
		{Name: "no data", Command: model.Command{Type: "outputControl", Attributes: model.Attributes{"index": 1.0}}},
		{Name: "unknown device", Conn: &protocols.Conn{}, Command: model.Command{Type: "rebootDevice"}},
	})
	prototest.EncodeRejects(t, p, legacy, []prototest.RejectCase{
		{Name: "output 0", Command: model.Command{Type: "outputControl", Attributes: model.Attributes{"index": 0.0, "data": "1"}}},
	})
	want := []string{"custom", "alarmArm", "alarmDisarm", "engineStop", "engineResume", "outputControl", "positionSingle", "rebootDevice"}
	if got := p.CommandTypes(); !slices.Equal(got, want) {
		t.Errorf("CommandTypes = %q", got)
	}
}

func TestRecognize(t *testing.T) {
	p := New()
	mine := []string{string(prototest.Unhex(t, zipHex)), string(prototest.Unhex(t, binaryHex))}
	for _, f := range textFrames {
		if f != bsaUniv && f != cmdError {
			mine = append(mine, f+"\r")
		}
	}
	for _, f := range mine {
		if got := p.Recognize([]byte(f)); got != protocols.Mine {
			t.Errorf("Recognize(%q) = %v, want Mine", f, got)
		}
		for n := 1; n < len(f); n++ {
			if got := p.Recognize([]byte(f[:n])); got != protocols.NeedMore {
				t.Fatalf("Recognize(%q) = %v, want NeedMore", f[:n], got)
			}
		}
	}
	for _, f := range []string{
		bsaUniv + "\rS", // a type not decoded (a byte after the '\r' tells no "\n" follows)
		"STT;abc;3FFFFF\rS",
		"*HQ,4210051415,V1,164549,A,0956.3869,N,08406.7068,W,000.00,000,221215,FFFFFBFF#", // h02
		"#L#2.0;42001300083;;CE45\r\n",         // wialon
		"$$\x00\x10123456",                     // meitrack
		"(087073005534BP00HSO)",                // tk103
		"\x78\x78\x0d\x01\x08\x64\x71\x70\x03", // gt06
		"SMS;hello\r",
		"\x02\x00\x02\x10\x00\x00",                        // a 0x02 frame too short to be a zip report
		st300STT + strings.Repeat(";0", MaxText/2) + "\r", // decodes, but longer than Split takes
	} {
		if got := p.Recognize([]byte(f)); got != protocols.NotMine {
			t.Errorf("Recognize(%q) = %v, want NotMine", f, got)
		}
	}
}

// TestSocket sends every shared frame over TCP as a device does (each
// report ends with '\r'; no login: the id is in every report) and checks
// that nothing is answered and what is stored.
func TestSocket(t *testing.T) {
	e := sockettest.Start(t, New())
	dev := map[string]*model.Device{}
	for _, id := range []string{"511340877", "1610020241", "109815653", "0950030205", "4309999001", "1140000053", "0820012345",
		"511331307", "0580000055", "107850496", "6009999006", "205589913", "317652", "123456", "344506", "205283272",
		"511848119", "560266", "205173382", "511050566"} {
		dev[id] = e.Device(id, "", nil)
	}
	c := e.Dial()
	c.Send(prototest.Unhex(t, zipHex))
	c.Send(prototest.Unhex(t, binaryHex))
	for _, f := range textFrames {
		c.Send([]byte(f + "\r"))
	}
	c.Silent(300 * time.Millisecond)
	kn := 1e-6
	sockettest.Check(t, e.WaitStored(dev["511340877"].ID, 1)[0], sockettest.Want{Time: at("2024-12-23 00:22:04"), Valid: true,
		Lat: -12.063565, Lon: -45.793653, Speed: 0.38 * kph, Course: 26.3, SpeedTolerance: kn, Attributes: model.Attributes{"event": 1}})
	sockettest.Check(t, e.WaitStored(dev["0580000055"].ID, 1)[0], sockettest.Want{Time: at("2020-02-04 16:41:57"), Valid: true,
		Lat: 4.681633, Lon: -74.049663, Attributes: model.Attributes{"driverUniqueId": "1d00000113f3f801"}})
	sockettest.Check(t, e.WaitStored(dev["1610020241"].ID, 1)[0], sockettest.Want{Time: at("2024-05-06 15:52:55"), Valid: true,
		Lat: -5.129240, Lon: -42.797868, Attributes: model.Attributes{"driverUniqueId": "22574684"}})
	sockettest.Check(t, e.WaitStored(dev["0950030205"].ID, 1)[0], sockettest.Want{Time: at("2025-10-01 19:34:41"), Valid: true,
		Lat: 25.791061, Lon: -100.170745, Attributes: model.Attributes{"assign1": "+23.0"}})
	sockettest.Check(t, e.WaitStored(dev["511331307"].ID, 1)[0], sockettest.Want{Time: at("2021-04-20 12:41:01"), Valid: true,
		Lat: -1.280825, Lon: -47.931773, Attributes: model.Attributes{"driverUniqueId": "9255143"}})
	// The SA200's STT, EMG and ALT, in that order; the keep-alive stores nothing.
	sa := e.WaitStored(dev["317652"].ID, 3)
	sockettest.Check(t, sa[0], sockettest.Want{Time: at("2012-07-18 15:37:12"), Valid: true, Lat: -15.61876, Lon: -56.08324,
		Speed: 0.024 * kph, SpeedTolerance: kn, Attributes: model.Attributes{"index": 1979, "power": 12.17}})
	sockettest.Check(t, sa[1], sockettest.Want{Time: at("2012-07-18 15:35:41"), Valid: true, Lat: -15.618740, Lon: -56.083252,
		Speed: 0.034 * kph, SpeedTolerance: kn, Attributes: model.Attributes{"alarm": "sos"}})
	sockettest.Check(t, sa[2], sockettest.Want{Time: at("2012-08-29 14:25:58"), Lat: -15.618770, Lon: -56.083242,
		Speed: 0.029 * kph, SpeedTolerance: kn})
	sockettest.Check(t, e.WaitStored(dev["560266"].ID, 1)[0], sockettest.Want{Time: at("2016-12-07 21:33:11"), Valid: true,
		Lat: -25.504234, Lon: -49.278003, Speed: 0.08 * kph, SpeedTolerance: kn, Attributes: model.Attributes{"odometer": 10054889}})
	// No fix: outdated, at no known place yet.
	sockettest.Check(t, e.WaitStored(dev["109815653"].ID, 1)[0], sockettest.Want{Outdated: true, Attributes: model.Attributes{"index": 98}})
	for _, id := range []string{"1140000053", "107850496", "6009999006", "205589913", "123456", "344506", "205283272", "205173382", "511050566"} {
		e.WaitStored(dev[id].ID, 1)
	}
	// Command answers are events, BSA is not decoded: nothing stored.
	for _, id := range []string{"4309999001", "511848119", "0820012345"} {
		e.WaitStored(dev[id].ID, 0)
	}
}

func FuzzSplitDecode(f *testing.F) {
	for _, fr := range textFrames {
		prototest.AddSeeds(f, fr+"\r")
	}
	prototest.AddHexSeeds(f, zipHex, binaryHex, "81004e05200013383fffff3401000300130b020b2a0500000000000000000000000047f9ec846a06500000000012010200000123a1002904ba00010fb40000000000000000000000000000000000005989")
	f.Fuzz(func(t *testing.T, data []byte) {
		p := testProtocol()
		prototest.SplitDecode(t, p, data)
		prototest.Recognized(t, p, data)
	})
}

func BenchmarkDecode(b *testing.B) {
	prototest.BenchDecode(b, testProtocol().Decode, []byte(st600STT+"\r"))
}
