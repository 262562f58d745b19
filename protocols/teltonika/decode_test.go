package teltonika

import (
	"encoding/hex"
	"math"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// Frames and expected values are from the Teltonika section of
// /work/shared/protocols/samples.md (Traccar's decoder tests).
const (
	imeiFrame    = "000F313233343536373839303132333435"
	codec8Frame  = "000000000000002c08010000013eff8d6f9800173295002111f400008100ae0b0000000401010003090016432980422f7200000100007a5d"
	noFixFrame   = "0000000000000035080100000161f37c50500020de5ba60ef11450000000000000000006040100b300b400ef000109002000014e0000000000000000010000be52"
	movingFrame  = "000000000000004508010000015eb70a86d00024089d4d21dee3860137005f12005f000e06ef01f00150011503c800450108b5000bb6000642382718005fcd057ace19d3430f57440000000001000002bf"
	answerFrame  = "00000000000000100C010600000008010300010015D5C5010000D988"
	codec8EFrame = "00000000000000628e0100000193011f1ec8003fa9def2fc401ea4000d00000400000000000f000700ef0000f00000150500c8000045012a34492a3800000600b5001300b60011004230aa00430fb7004400002a30fb5d000200f10000c74200100000014900000000010000fbff"
	pingFrame    = "ff"
	udpPacket    = "0049cafe0122000f33353734353430373237313339373508010000015d3766f6a800003eef961ec6215e0063006d09003100070401000200f001c8000242381c18003201c7000000e10001"
)

type wantRecord struct {
	time          string // RFC 3339 with milliseconds
	valid         bool
	lat, lon      float64
	alt, course   float64
	speedKmh      float64
	attrs         map[string]any
	absentAttrs   []string
	networkCellID int64
}

type decodeCase struct {
	name     string
	frame    string
	uniqueID string
	reply    string
	ack      string
	command  string
	crcBad   bool
	records  []wantRecord
}

func TestDecodeSamples(t *testing.T) {
	tests := []decodeCase{
		{name: "imei handshake", frame: imeiFrame, uniqueID: "123456789012345", reply: "01"},
		{name: "keep-alive ping", frame: pingFrame},
		{name: "codec 8", frame: codec8Frame, ack: "00000001", records: []wantRecord{{
			time: "2013-06-01T11:44:19.352Z", valid: true, lat: 55.4824704, lon: 38.9190912, alt: 129, course: 174,
			attrs: map[string]any{"sat": 11, "priority": 0, "event": 0, "in1": false,
				"adc1": 0.022, "battery": 10.624, "power": 12.146}}}},
		{name: "codec 8 without fix", frame: noFixFrame, ack: "00000001", records: []wantRecord{{
			time: "2018-03-05T00:07:46Z", valid: false, lat: 25.06804, lon: 55.1443366,
			attrs: map[string]any{"sat": 0, "ignition": false, "out1": false, "out2": false, "adc1": 0.032}}}},
		{name: "codec 8 moving", frame: movingFrame, ack: "00000001", records: []wantRecord{{
			time: "2017-09-25T03:17:54Z", valid: true, lat: 56.8255366, lon: 60.4544333, alt: 311, course: 95, speedKmh: 95,
			attrs: map[string]any{"sat": 18, "ignition": true, "motion": true, "rssi": int64(3), "power": 14.375,
				"battery": 3.927, "pdop": 1.1, "hdop": 0.6, "gpsStatus": int64(1), "sleepMode": int64(0),
				"io205": int64(1402), "io206": int64(6611)},
			absentAttrs: []string{"operator", "io200"}}}},
		{name: "codec 12 answer", frame: answerFrame, command: "010300010015d5c5"},
		{name: "codec 8 extended", frame: codec8EFrame, ack: "00000001", records: []wantRecord{{
			time: "2024-11-06T10:57:17Z", valid: true, lat: -6.2906716, lon: 106.8097266, alt: 13,
			attrs: map[string]any{"sat": 4, "ignition": false, "motion": false, "operator": int64(51010),
				"odometer": int64(329), "power": 12.458, "battery": 4.023,
				// An FMB130 (Traccar's test sets that model): IO 10800 is an
				// EYE sensor temperature, 0xfb5d = -1187 x 0.01 degC.
				"eyeTemp1": -11.87, "io10804": int64(73), "io10808": int64(0)},
			absentAttrs: []string{"io10800"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := New().Decode(&protocols.Conn{}, prototest.Unhex(t, tt.frame))
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, res, tt)
		})
	}
}

func checkResult(t *testing.T, res protocols.Result, tt decodeCase) {
	t.Helper()
	if res.UniqueID != tt.uniqueID || res.CommandResult != tt.command || res.ChecksumError != tt.crcBad {
		t.Errorf("UniqueID %q CommandResult %q ChecksumError %v; want %q %q %v",
			res.UniqueID, res.CommandResult, res.ChecksumError, tt.uniqueID, tt.command, tt.crcBad)
	}
	if got := hex.EncodeToString(res.Reply); got != tt.reply {
		t.Errorf("Reply = %s, want %s", got, tt.reply)
	}
	if got := hex.EncodeToString(res.Ack); got != tt.ack {
		t.Errorf("Ack = %s, want %s", got, tt.ack)
	}
	if len(res.Positions) != len(tt.records) {
		t.Fatalf("got %d positions, want %d", len(res.Positions), len(tt.records))
	}
	for i, w := range tt.records {
		checkRecord(t, res.Positions[i], w)
	}
}

func checkRecord(t *testing.T, p *model.Position, w wantRecord) {
	t.Helper()
	want, err := time.Parse(time.RFC3339Nano, w.time)
	if err != nil {
		t.Fatal(err)
	}
	if !p.FixTime.Equal(want) || !p.DeviceTime.Equal(want) || p.FixTime.Location() != time.UTC {
		t.Errorf("time = %v / %v, want %v UTC", p.FixTime, p.DeviceTime, want)
	}
	if p.Protocol != Name || p.Outdated || p.Valid != w.valid {
		t.Errorf("protocol %q outdated %v valid %v, want %q false %v", p.Protocol, p.Outdated, p.Valid, Name, w.valid)
	}
	if math.Abs(p.Latitude-w.lat) > 1e-7 || math.Abs(p.Longitude-w.lon) > 1e-7 {
		t.Errorf("lat/lon = %v/%v, want %v/%v", p.Latitude, p.Longitude, w.lat, w.lon)
	}
	if p.Altitude != w.alt || p.Course != w.course || math.Abs(p.Speed-w.speedKmh*kphToKnots) > 1e-9 {
		t.Errorf("alt/course/speed = %v/%v/%v, want %v/%v/%v kn", p.Altitude, p.Course, p.Speed,
			w.alt, w.course, w.speedKmh*kphToKnots)
	}
	for k, v := range w.attrs {
		if got := p.Attributes[k]; got != v {
			t.Errorf("attribute %s = %#v, want %#v", k, got, v)
		}
	}
	for _, k := range w.absentAttrs {
		if v, ok := p.Attributes[k]; ok {
			t.Errorf("attribute %s = %#v, want none", k, v)
		}
	}
	if w.networkCellID == 0 {
		if p.Network != nil {
			t.Errorf("Network = %v, want nil", p.Network)
		}
		return
	}
	towers := p.Network.(map[string]any)["cellTowers"].([]map[string]any)
	if towers[0]["cellId"] != w.networkCellID {
		t.Errorf("Network = %v, want cell %d", p.Network, w.networkCellID)
	}
}

func TestChecksumMismatchStillDecodes(t *testing.T) {
	frame := prototest.Unhex(t, codec8Frame)
	frame[len(frame)-1] ^= 0xFF
	res, err := New().Decode(nil, frame)
	if err != nil || !res.ChecksumError || len(res.Positions) != 1 || string(res.Ack) != "\x00\x00\x00\x01" {
		t.Fatalf("res %+v err %v; want one position, ChecksumError and the ack", res, err)
	}
}

func TestCRC16IBM(t *testing.T) {
	// Check value of CRC-16/ARC from the CRC catalogue.
	if got := crc16IBM([]byte("123456789")); got != 0xBB3D {
		t.Fatalf("crc16IBM(123456789) = %#04x, want 0xbb3d", got)
	}
}

func TestDecodeDatagram(t *testing.T) {
	res, err := New().DecodeDatagram(&protocols.Conn{}, prototest.Unhex(t, udpPacket))
	if err != nil {
		t.Fatal(err)
	}
	// Teltonika echoes the packet id (cafe); Traccar writes 0000 instead.
	// The record says 49 km/h; IO 24 (GNSS speed, 50 km/h) replaces it,
	// as Traccar does for the FMB family.
	checkResult(t, res, decodeCase{uniqueID: "357454072713975", ack: "0005cafe012201", records: []wantRecord{{
		time: "2017-07-12T15:24:41Z", valid: true, lat: 51.630115, lon: 0.4124566, alt: 99, course: 109, speedKmh: 50,
		attrs: map[string]any{"sat": 9, "event": 0, "in1": false, "in2": false, "motion": true, "sleepMode": int64(0),
			"power": 14.364, "tripOdometer": int64(225)},
		absentAttrs: []string{"ignition", "io24", "io200"}}}})
}

func TestDecodeRejectsBadInput(t *testing.T) {
	for name, frame := range map[string]string{
		"imei not digits":   "000f" + hex.EncodeToString([]byte("12345678901234A")),
		"imei length wrong": "000f3132",
		// A record cut short under a CRC that matches: malformed.
		"truncated record": hex.EncodeToString(wrapAVL(prototest.Unhex(t, codec8Frame[16:60]))),
		"short avl":        "00000000000000020801",
	} {
		t.Run(name, func(t *testing.T) {
			b, err := hex.DecodeString(frame)
			if err != nil {
				t.Fatal(err)
			}
			if res, err := New().Decode(nil, b); err == nil {
				t.Fatalf("want error, got %+v", res)
			}
		})
	}
	for name, packet := range map[string]string{
		"udp truncated imei": "0049cafe0122000f3335",
		"udp bad imei":       "000ecafe01220002414208010000",
		"udp short record":   udpPacket[:80],
	} {
		t.Run(name, func(t *testing.T) {
			if res, err := New().DecodeDatagram(nil, prototest.Unhex(t, packet)); err == nil {
				t.Fatalf("want error, got %+v", res)
			}
		})
	}
}
