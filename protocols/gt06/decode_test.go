package gt06

import (
	"encoding/hex"
	"math"
	"testing"
	"time"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// Frames and expected values are from the GT06 section of
// /work/shared/protocols/samples.md (Traccar's decoder tests).
const (
	loginFrame   = "78780D01086471700328358100093F040D0A"
	gpsLBSFrame  = "78781f120f0a140e150bc505e51e780293a9e800540000f601006e0055da00035f240d0a"
	gpsLBS2Frame = "787822220F0C1D023305C9027AC8180C46586000140001CC00287D001F71000001000820860D0A"
	statusFrame  = "78780a13440604000201baaf540d0a"
	alarmFrame   = "787826161709130f3a2dcc02c55f2a089f9af9005c210901360481fe066d9b03413e420102035f92fe0d0a"
	echoFrame    = "787805120099abec0d0a"
	accelFrame   = "78780c95130a0209321c90000112800d0a"
	brakeFrame   = "78780c95130a0209321c91000112800d0a" // carries accelFrame's CRC
	extGPSFrame  = "7979003e3819050e0e0c26c5010fd98e0905f53000ccab0e000302c80100000c240000000000048b08001b002e04000015c4003b020000003c0401020001021f60220d0a"
	// login2Frame is Traccar's frame-decoder sample: its length field claims
	// 3 bytes more than the frame has.
	login2Frame = "78780d0103563140414198583c0d0a"
	// heartbeatFrame is a GK310 heartbeat (0x23): status C0, battery
	// 0x0122 = 2.90 V, signal 4.
	heartbeatFrame = "78780B23C00122040001000818720D0A"
	// 4G GPS + cell (0xA0), GK310 / JM-VL03: MCC 2, MNC 1, LAC 4, cell id 8,
	// then ACC, upload mode, re-upload.
	gps4GFrame  = "787829a01707150f2d0ecd01635100041e96d000087c02d4020000912e000000000718798d000e0006ed3ce50d0a"
	gps4G2Frame = "787829a0170704112226cf0163fe7c0420f6f000091302d402000091290000000007186b8f01030001460d010d0a"
	// 4G multi-fence alarms (0xA4): GPS, cell block led by its length
	// (0x10; 0x11 with a 2-byte MNC), status, alarm, language, fence.
	fence4GFrame  = "78782da41a0509160203cf05be31f80c306530001c0010012ed000007ef40000000006428b074205041302ff0009389c0d0a"
	fence4G2Frame = "78782DA4150817073B10CF032EEA9C0B6CE0800015141001CC0100009A00000000000A6F24014605041900FF01908A640D0A"
	fence4G3Frame = "78782EA4110C0C02281BF6026C18720C38D22800149C1181CC00010000260E000000000615F8012C05041102FF001058FD0D0A"
	// 4G alarms without a fix (0xA5): cell (MCC, MNC, LAC 4, cell id 8), status.
	lbsAlarm4GFrame  = "787819a5012ed0000075df000000000098661502050413000019a12b0d0a"
	lbsAlarm4G2Frame = "787819a501cc0000009191000000000906170304050400010005f44d0d0a"
	// JI09 0x1E: GPS then seven cells sharing MCC/MNC.
	gpsCellsFrame = "7878471e0e03110b0511c501c664fd074db73f0218a602e003433a002fed40433a0056e14e433a0056104e433a0056fd53433a002eed55433a007e4b57433a002ee25aff00020120f6720d0a"
	// 0x37: GPS, cell, ACC tail, modules 0x2E odometer, 0x3B accuracy, 0x3C.
	gpsModulesFrame = "7878353714080d05000ac500a886eb0b7522f000100001fe0a05ea004f1b000001002e0400002328003b0217c0003c0401020001002c468a0d0a"
	// 0x61: IMEI, GPS, cell with a 4-byte cell id, iButton id 0x000001395581.
	iButtonFrame = "78782e610869412070143950190a1e0d3806c802b0eb0f0561ecdc00d80002d404000004215f0e000001395581000d1ca60d0a"
)

type cell struct{ mcc, mnc, lac int }

type wantPosition struct {
	time     string // RFC 3339 UTC; empty for frames without a time
	fixTime  string // when it differs from time
	valid    bool
	lat, lon float64
	course   float64
	outdated bool
	cell     *cell
	cellID   int64
	radio    string  // network radioType; empty means "gsm"
	towers   int     // cell towers, the first one being cell; 0 means 1
	speed    float64 // knots
	accuracy float64
	altitude float64
	attrs    map[string]any
}

func TestDecodeSamples(t *testing.T) {
	tests := []struct {
		name     string
		frame    string
		uniqueID string
		reply    string
		ack      string
		crcBad   bool
		position *wantPosition
	}{
		{name: "login", frame: loginFrame, uniqueID: "864717003283581", reply: "78780501000955940d0a"},
		{name: "gps lbs 0x12", frame: gpsLBSFrame, ack: "787805120003903f0d0a", position: &wantPosition{
			time: "2015-10-20T14:21:11Z", valid: true, lat: 54.94535, lon: 24.01762,
			cell: &cell{246, 1, 110}, cellID: 21978, attrs: map[string]any{"sat": 5}}},
		{name: "gps lbs 0x22 with acc tail", frame: gpsLBS2Frame, ack: "787805220008a8420d0a", position: &wantPosition{
			time: "2015-12-29T02:51:05Z", valid: true, lat: 23.11169, lon: 114.40930,
			cell: &cell{460, 0, 10365}, cellID: 8049,
			attrs: map[string]any{"sat": 9, "ignition": false, "event": 0, "archive": true}}},
		{name: "status heartbeat 0x13", frame: statusFrame, ack: "7878051301bafb710d0a", position: &wantPosition{
			outdated: true,
			attrs: map[string]any{"status": 68, "ignition": false, "charge": true, "blocked": false,
				"batteryLevel": 100, "rssi": 4}}},
		{name: "alarm 0x16 seeworld", frame: alarmFrame, ack: "78780516035f41df0d0a", position: &wantPosition{
			time: "2023-09-19T15:58:45Z", valid: true, lat: 25.82744, lon: -80.37646, course: 33,
			cell: &cell{310, 4, 0x81fe}, cellID: 0x066d9b03,
			attrs: map[string]any{"alarm": "sos", "sat": 12, "batteryLevel": 62, "rssi": 66}}},
		{name: "echoed ack", frame: echoFrame},
		// 0x087C: course 124, south, west, no fix; ACC 0, upload mode 0x0E.
		{name: "gps 4g 0xa0", frame: gps4GFrame, ack: "787805a006ed" + crcHex("05a006ed") + "0d0a",
			position: &wantPosition{time: "2023-07-21T15:45:14Z", valid: false, lat: -12.936676, lon: -38.396418,
				course: 124, cell: &cell{724, 2, 37166}, cellID: 119044493, radio: "lte",
				attrs: map[string]any{"sat": 13, "ignition": false, "event": 14, "archive": false}}},
		// Status 0x42: ACC on; alarm 0x13 tampering; fence 0xFF.
		{name: "fence alarm 4g 0xa4", frame: fence4GFrame, ack: "787805a40009" + crcHex("05a40009") + "0d0a",
			position: &wantPosition{time: "2026-05-09T22:02:03Z", valid: true, lat: 53.528173, lon: -113.610124,
				cell: &cell{302, 208, 32500}, cellID: 105024263, radio: "lte",
				attrs: map[string]any{"sat": 15, "status": 0x42, "ignition": true, "charge": false,
					"batteryLevel": 83, "rssi": 4, "alarm": "tampering", "geofence": 255}}},
		// Traccar's sample carries a wrong CRC.
		{name: "fence alarm 4g 0xa4 low battery", frame: fence4G2Frame, crcBad: true, ack: "787805a40190" + crcHex("05a40190") + "0d0a",
			position: &wantPosition{time: "2021-08-23T07:59:16Z", valid: true, lat: 29.670202, lon: 106.49152,
				course: 276, cell: &cell{460, 1, 39424}, cellID: 175055873, radio: "lte",
				attrs: map[string]any{"status": 0x46, "ignition": true, "charge": true, "alarm": "lowBattery"}}},
		{name: "fence alarm 4g 0xa4 wide mnc", frame: fence4G3Frame, ack: "787805a40010" + crcHex("05a40010") + "0d0a",
			position: &wantPosition{time: "2017-12-12T02:40:27Z", valid: true, lat: 22.576988, lon: 113.916893,
				course: 156, cell: &cell{460, 1, 9742}, cellID: 102103041, radio: "lte",
				attrs: map[string]any{"sat": 6, "ignition": false, "charge": true, "alarm": "powerOff"}}},
		// Status 0x02: ACC on; alarm 0x13 tampering.
		{name: "lbs alarm 4g 0xa5", frame: lbsAlarm4GFrame, ack: "787805a50019" + crcHex("05a50019") + "0d0a",
			position: &wantPosition{outdated: true, cell: &cell{302, 208, 30175}, cellID: 9987605, radio: "lte",
				attrs: map[string]any{"status": 0x02, "ignition": true, "charge": false, "batteryLevel": 83,
					"rssi": 4, "alarm": "tampering"}}},
		{name: "lbs alarm 4g 0xa5 no alarm", frame: lbsAlarm4G2Frame, ack: "787805a50005" + crcHex("05a50005") + "0d0a",
			position: &wantPosition{outdated: true, cell: &cell{460, 0, 37265}, cellID: 151394051, radio: "lte",
				attrs: map[string]any{"status": 0x04, "ignition": false, "charge": true, "batteryLevel": 83,
					"rssi": 4, "alarm": nil}}},
		// 0x18A6: course 166, south, west, valid; 2 km/h.
		{name: "gps cells 0x1e", frame: gpsCellsFrame, ack: "7878051e0120" + crcHex("051e0120") + "0d0a",
			position: &wantPosition{time: "2014-03-17T11:05:17Z", valid: true, lat: -16.543998, lon: -68.074275,
				course: 166, speed: 2 * kphToKnots, cell: &cell{736, 3, 17210}, cellID: 12269, towers: 7,
				attrs: map[string]any{"sat": 5}}},
		{name: "gps modules 0x37", frame: gpsModulesFrame, ack: "78780537002c" + crcHex("0537002c") + "0d0a",
			position: &wantPosition{time: "2020-08-13T05:00:10Z", valid: true, lat: -6.135882, lon: 106.79224,
				accuracy: 60.8, cell: &cell{510, 10, 1514}, cellID: 20251,
				attrs: map[string]any{"sat": 5, "ignition": false, "event": 0, "archive": true, "odometer": int64(9000)}}},
		// 0xD800: ACC reported and on, valid, south, west.
		{name: "ibutton 0x61", frame: iButtonFrame, ack: "78780561000d" + crcHex("0561000d") + "0d0a",
			position: &wantPosition{time: "2025-10-30T13:56:06Z", valid: true, lat: -25.082746, lon: -50.168727,
				cell: &cell{724, 4, 0}, cellID: 69295886,
				attrs: map[string]any{"sat": 8, "ignition": true, "driverUniqueId": "20534657"}}},
		{name: "gps 4g 0xa0 acc on", frame: gps4G2Frame, ack: "787805a00146" + crcHex("05a00146") + "0d0a",
			position: &wantPosition{time: "2023-07-04T17:34:38Z", valid: false, lat: -12.961349, lon: -38.482907,
				course: 275, cell: &cell{724, 2, 37161}, cellID: 119040911, radio: "lte",
				attrs: map[string]any{"sat": 15, "ignition": true, "event": 3, "archive": false}}},
		{name: "heartbeat 0x23", frame: heartbeatFrame, ack: "787805230008" + crcHex("05"+"23"+"0008") + "0d0a", position: &wantPosition{
			outdated: true,
			attrs:    map[string]any{"armed": false, "ignition": false, "charge": false, "battery": 2.9, "rssi": 4}}},
		{name: "jc100 hard acceleration", frame: accelFrame, ack: "787805950001" + crcHex("0595"+"0001") + "0d0a",
			position: &wantPosition{time: "2019-10-02T09:50:28Z", outdated: true,
				attrs: map[string]any{"alarm": "hardAcceleration", "event": 0x90}}},
		{name: "jc100 hard braking, bad crc", frame: brakeFrame, crcBad: true,
			ack: "787805950001" + crcHex("0595"+"0001") + "0d0a",
			position: &wantPosition{time: "2019-10-02T09:50:28Z", outdated: true,
				attrs: map[string]any{"alarm": "hardBraking", "event": 0x91}}},
		{name: "extended 0x38", frame: extGPSFrame, ack: "797900053802" + "1f" + crcHex("0005"+"38021f") + "0d0a",
			position: &wantPosition{time: "2025-05-14T14:12:38Z", valid: false, lat: 9.89775, lon: -84.10300,
				course: 171, attrs: map[string]any{"sat": 5, "ignition": true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := New().Decode(&protocols.Conn{}, prototest.Unhex(t, tt.frame))
			if err != nil {
				t.Fatal(err)
			}
			if res.UniqueID != tt.uniqueID {
				t.Errorf("UniqueID = %q, want %q", res.UniqueID, tt.uniqueID)
			}
			if got := hex.EncodeToString(res.Reply); got != tt.reply {
				t.Errorf("Reply = %s, want %s", got, tt.reply)
			}
			if got := hex.EncodeToString(res.Ack); got != tt.ack {
				t.Errorf("Ack = %s, want %s", got, tt.ack)
			}
			if res.ChecksumError != tt.crcBad {
				t.Errorf("ChecksumError = %v, want %v", res.ChecksumError, tt.crcBad)
			}
			if tt.position == nil {
				if len(res.Positions) != 0 {
					t.Fatalf("got %d positions, want none", len(res.Positions))
				}
				return
			}
			if len(res.Positions) != 1 {
				t.Fatalf("got %d positions, want 1", len(res.Positions))
			}
			checkPosition(t, res, tt.position)
		})
	}
}

func checkPosition(t *testing.T, res protocols.Result, w *wantPosition) {
	t.Helper()
	p := res.Positions[0]
	if p.Protocol != "gt06" || p.Outdated != w.outdated || p.Valid != w.valid {
		t.Errorf("protocol/outdated/valid = %q/%v/%v, want gt06/%v/%v", p.Protocol, p.Outdated, p.Valid, w.outdated, w.valid)
	}
	if w.time != "" {
		want, _ := time.Parse(time.RFC3339, w.time)
		if !p.DeviceTime.Equal(want) || p.DeviceTime.Location() != time.UTC {
			t.Errorf("DeviceTime = %v, want %v UTC", p.DeviceTime, want)
		}
	}
	if !w.outdated {
		want := p.DeviceTime
		if w.fixTime != "" {
			want, _ = time.Parse(time.RFC3339, w.fixTime)
		}
		if !p.FixTime.Equal(want) {
			t.Errorf("FixTime = %v, want %v", p.FixTime, want)
		}
		if math.Abs(p.Latitude-w.lat) > 1e-5 || math.Abs(p.Longitude-w.lon) > 1e-5 {
			t.Errorf("lat/lon = %v/%v, want %v/%v", p.Latitude, p.Longitude, w.lat, w.lon)
		}
		if p.Altitude != w.altitude {
			t.Errorf("altitude = %v, want %v", p.Altitude, w.altitude)
		}
		if math.Abs(p.Speed-w.speed) > 1e-9 || p.Course != w.course || p.Accuracy != w.accuracy {
			t.Errorf("speed/course/accuracy = %v/%v/%v, want %v/%v/%v", p.Speed, p.Course, p.Accuracy,
				w.speed, w.course, w.accuracy)
		}
	}
	for k, v := range w.attrs {
		if p.Attributes[k] != v {
			t.Errorf("attribute %s = %#v, want %#v", k, p.Attributes[k], v)
		}
	}
	if w.cell == nil {
		if p.Network != nil {
			t.Errorf("Network = %v, want nil", p.Network)
		}
		return
	}
	net, _ := p.Network.(map[string]any)
	towers, _ := net["cellTowers"].([]map[string]any)
	radio := w.radio
	if radio == "" {
		radio = "gsm"
	}
	count := w.towers
	if count == 0 {
		count = 1
	}
	if net["radioType"] != radio || net["considerIp"] != false || len(towers) != count {
		t.Fatalf("Network = %v", p.Network)
	}
	tw := towers[0]
	if tw["mobileCountryCode"] != w.cell.mcc || tw["mobileNetworkCode"] != w.cell.mnc ||
		tw["locationAreaCode"] != w.cell.lac || tw["cellId"] != w.cellID {
		t.Errorf("cell tower = %v, want %+v cid %d", tw, *w.cell, w.cellID)
	}
}

// crcHex is the CRC-16/X.25 of the hex bytes, as 4 hex digits.
func crcHex(s string) string {
	b, _ := hex.DecodeString(s)
	c := crcX25(b)
	return hex.EncodeToString([]byte{byte(c >> 8), byte(c)})
}

func TestCRCX25(t *testing.T) {
	// Check value of CRC-16/X-25 from the CRC catalogue.
	if got := crcX25([]byte("123456789")); got != 0x906E {
		t.Fatalf("crcX25(123456789) = %#04x, want 0x906e", got)
	}
}

func TestSpeedConversion(t *testing.T) {
	frame := prototest.Unhex(t, gpsLBSFrame)
	frame[19] = 100 // speed byte: 100 km/h
	res, err := New().Decode(nil, frame)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Positions[0].Speed; math.Abs(got-53.9957) > 1e-9 {
		t.Fatalf("speed = %v knots, want 53.9957", got)
	}
	if !res.ChecksumError {
		t.Fatal("changed frame should fail its CRC")
	}
}

func TestDecodeRejectsBadInput(t *testing.T) {
	tests := map[string]string{
		"not a frame":     "0102030405060708090a",
		"no trailer":      "78780a13440604000201baaf5400",
		"truncated login": "78780701086471000900000d0a",
		"bad month":       "78781f120f0d140e150bc505e51e780293a9e800540000f601006e0055da00035f240d0a",
		"short gps":       "78780a1209320b0c0d0e0f10110d0a",
	}
	for name, frame := range tests {
		t.Run(name, func(t *testing.T) {
			res, err := New().Decode(nil, prototest.Unhex(t, frame))
			if err == nil {
				t.Fatalf("want error, got %+v", res)
			}
			if len(res.Positions) != 0 || res.Reply != nil || res.Ack != nil {
				t.Fatalf("error result carries data: %+v", res)
			}
		})
	}
}

// TestUnknownTypeGetsNoAnswer: a packet type fleetd does not decode is not
// stored, so it is not answered either, with either header: the device
// keeps the data and resends it.
func TestUnknownTypeGetsNoAnswer(t *testing.T) {
	for _, long := range []bool{false, true} {
		for _, typ := range []int{0x1f, 0x55, 0xfe} {
			frame := response(long, typ, []byte{0x55, 0x01, 0x02}, []byte{0, 7})
			res, err := New().Decode(nil, frame)
			if err != nil || len(res.Positions) != 0 || res.Reply != nil || res.Ack != nil {
				t.Errorf("long %v type %#x: res=%+v err=%v, want no answer", long, typ, res, err)
			}
		}
	}
}

func TestTimeRequest(t *testing.T) {
	// GK310 time request: type 0x8A, no content.
	p := &Protocol{now: prototest.Clock} // 2024-05-06 07:08:09 UTC
	res, err := p.Decode(nil, prototest.Unhex(t, "787805"+"8a"+"0007"+crcHex("05"+"8a"+"0007")+"0d0a"))
	if err != nil || len(res.Positions) != 0 || res.Ack != nil {
		t.Fatalf("res=%+v err=%v", res, err)
	}
	// 0B = length, 8A, 18 05 06 07 08 09 = time, 0000 = serial, CRC.
	want := "78780b8a" + "180506070809" + "0000" + crcHex("0b8a"+"180506070809"+"0000") + "0d0a"
	if got := hex.EncodeToString(res.Reply); got != want {
		t.Fatalf("Reply = %s, want %s", got, want)
	}
}
