package teltonika

import (
	"encoding/hex"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// Records built from Teltonika's codec layouts, for the codec features the
// Traccar samples do not cover. Every record has the same GNSS part:
// 2023-11-14T22:13:20.123Z, priority 1, lon -12.3456789, lat 45.1234567,
// altitude -5, angle 270, 7 satellites, 60 km/h.
const gnss = "0000018bcfe5687b01f8a432eb1ae54b07fffb010e07003c"

const (
	// Codec 16: event id (2), generation type, total, then per width a
	// 1-byte count and 2-byte ids.
	codec16Record = gnss + "00f0" + "05" + "07" +
		"02" + "00ef01" + "00fd02" +
		"02" + "0048ff38" + "00ce1234" +
		"02" + "00cd0000abcd" + "00f100005fb5" +
		"01" + "004e0000000012345678"
	// Codec 8E: 2-byte event id, counts and ids, then variable-length IO.
	codec8ERecord = gnss + "0000" + "0003" +
		"0001" + "00ef01" + "0000" + "0000" + "0000" +
		"0002" + "0100" + "0011" + "57304c3030303035315432313233343536" + "0400" + "0002" + "abcd"
)

func avlHex(t *testing.T, codec string, count int, records ...string) string {
	n := hex.EncodeToString([]byte{byte(count)})
	data := codec + n
	for _, r := range records {
		data += r
	}
	return hex.EncodeToString(wrapAVL(prototest.Unhex(t, data+n)))
}

func TestDecodeCodecs(t *testing.T) {
	base := wantRecord{time: "2023-11-14T22:13:20.123Z", valid: true, lat: 45.1234567, lon: -12.3456789,
		alt: -5, course: 270, speedKmh: 60}
	with := func(attrs map[string]any, cellID int64) wantRecord {
		w := base
		w.attrs, w.networkCellID = attrs, cellID
		return w
	}
	codec16 := with(map[string]any{"event": 0xf0, "priority": 1, "sat": 7, "ignition": true,
		"alarm": "hardBraking", "temp1": -20.0, "io206": int64(0x1234), "io205": int64(0xabcd),
		"operator": int64(24501),
		// IO 78 comes least significant byte first: 00 00 00 00 12 34 56 78.
		"driverUniqueId": "7856341200000000"}, 0xabcd)
	codec8E := with(map[string]any{"ignition": true, "vin": "W0L000051T2123456", "io1024": "abcd"}, 0)
	tests := []decodeCase{
		{name: "codec 16", frame: avlHex(t, "10", 1, codec16Record), ack: "00000001",
			records: []wantRecord{codec16}},
		{name: "codec 8E two records", frame: avlHex(t, "8e", 2, codec8ERecord, codec8ERecord), ack: "00000002",
			records: []wantRecord{codec8E, codec8E}},
		{name: "codec 13 message", frame: avlHex(t, "0d", 1, "06"+"0000000c"+"5f5e1000"+"48656c6c6f212121"),
			command: "Hello!!!"},
		{name: "codec 12 text answer", frame: avlHex(t, "0c", 1, "06"+"0000000a"+hex.EncodeToString([]byte("DOUT1:1 \r\n"))),
			command: "DOUT1:1"},
		// An empty answer is still an answer: no record ack.
		{name: "codec 12 empty answer", frame: avlHex(t, "0c", 1, "06"+"00000000")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := New().Decode(nil, prototest.Unhex(t, tt.frame))
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, res, tt)
		})
	}
}

func TestNetworkFromOperator(t *testing.T) {
	res, err := New().Decode(nil, prototest.Unhex(t, avlHex(t, "10", 1, codec16Record)))
	if err != nil {
		t.Fatal(err)
	}
	net := res.Positions[0].Network.(map[string]any)
	tower := net["cellTowers"].([]map[string]any)[0]
	if net["radioType"] != "gsm" || net["considerIp"] != false || tower["mobileCountryCode"] != 245 ||
		tower["mobileNetworkCode"] != 1 || tower["locationAreaCode"] != 0x1234 {
		t.Fatalf("Network = %v", net)
	}
}

// TestFM6DriverID: FM6 devices send a 16-character driver id as two 8-byte
// elements, IO 195 (first half) and 196; only for that family do they
// make driverUniqueId. No real capture has them: the record is built from
// the codec 8 layout.
func TestFM6DriverID(t *testing.T) {
	rec := gnss + "00" + "02" + "00" + "00" + "00" +
		"02" + "c3" + hex.EncodeToString([]byte("12345678")) + "c4" + hex.EncodeToString([]byte("ABCDEFGH"))
	frame := prototest.Unhex(t, avlHex(t, "08", 1, rec))
	for model, want := range map[string]any{"FMB640": "12345678ABCDEFGH", "fmc650": "12345678ABCDEFGH", "FM6300": nil, "": nil, "FMB920": nil} {
		res, err := New().Decode(&protocols.Conn{Model: model}, frame)
		if err != nil || len(res.Positions) != 1 {
			t.Fatalf("model %q: %+v, %v", model, res, err)
		}
		a := res.Positions[0].Attributes
		if a["driverUniqueId"] != want || a["io195"] != int64(0x3132333435363738) || a["io196"] != int64(0x4142434445464748) {
			t.Errorf("model %q: driverUniqueId %#v io195 %#v io196 %#v, want %#v", model, a["driverUniqueId"], a["io195"], a["io196"], want)
		}
	}
}

// TestIONames decodes one codec 8E record built with the FMB ids that no
// public capture carries, each with a value that shows its scale and sign,
// and IO 636 (LTE cell id) with 206 and 241 for the network.
func TestIONames(t *testing.T) {
	el := func(id uint16, value string) string {
		return hex.EncodeToString([]byte{byte(id >> 8), byte(id)}) + value
	}
	section := func(elements ...string) string {
		out := hex.EncodeToString([]byte{0, byte(len(elements))})
		for _, e := range elements {
			out += e
		}
		return out
	}
	ones := section(el(175, "01"), el(246, "01"), el(249, "01"), el(251, "01"), el(252, "01"), el(662, "01"),
		el(81, "3c"), el(82, "28"), el(89, "37"), el(31, "46"), el(32, "f6"), el(57, "ff"), el(30, "02"), el(200, "01"))
	twos := section(el(10644, "f830"), el(10649, "0960"), el(10803, "0a28"), el(10832, "fff6"), el(115, "ff9c"),
		el(36, "05dc"), el(85, "0578"), el(84, "01f4"), el(13, "00fa"), el(110, "0023"), el(43, "000c"),
		el(68, "05dc"), el(9, "2ee0"), el(10, "0001"), el(28, "f448"), el(206, "1234"))
	fours := section(el(12, "0001e240"), el(83, "000004d2"), el(87, "000186a0"), el(107, "00001388"),
		el(72, "ffffff9c"), el(75, "000000fa"), el(636, "00abcdef"), el(241, "00005fb5"))
	eights := section(el(11, "7c07f3e1d4a8e119"))
	rec := gnss + "0000" + "0027" + ones + twos + fours + eights + "0000"
	res, err := New().Decode(&protocols.Conn{}, prototest.Unhex(t, avlHex(t, "8e", 1, rec)))
	if err != nil {
		t.Fatal(err)
	}
	want := prototest.Position{Time: time.Date(2023, 11, 14, 22, 13, 20, 123e6, time.UTC), Valid: true,
		Lat: 45.1234567, Lon: -12.3456789, Altitude: -5, Course: 270, Speed: 60 * kphToKnots,
		Attributes: model.Attributes{"priority": 1, "sat": 7, "event": 0,
			"alarm": "geofenceEnter,tow,jamming,idle,powerCut", "door": true, "obdSpeed": int64(60),
			"throttle": int64(40), "fuelLevel": int64(55), "engineLoad": int64(70), "coolantTemp": int64(-10),
			"hybridBatteryLevel": int64(-1), "faultCount": int64(2), "sleepMode": int64(1),
			"tempProbe1": -20.0, "tempProbe6": 24.0, "eyeTemp4": 26.0, "eyeRoll1": int64(-10), "engineTemp": -10.0,
			"rpm":  int64(1400), // IO 36 (1500), then IO 85 (1400) in the same record
			"fuel": 50.0, "milDistance": int64(12), "batteryCurrent": 1.5,
			"fuelConsumption": 3.5, // IO 13 (2.5), then IO 110 (3.5)
			"adc1":            12.0, "adc2": 0.001, "bleTemp4": -30.0, "io206": int64(0x1234),
			"fuelUsed":    500.0, // IO 12 (123.456), IO 83 (123.4), then IO 107 (500.0)
			"obdOdometer": int64(100000), "temp1": -10.0, "temp4": 25.0, "io636": int64(0xabcdef),
			"operator": int64(24501), "iccid": "8937380136801067289"},
		Network: map[string]any{"radioType": "lte", "considerIp": false, "cellTowers": []map[string]any{{
			"locationAreaCode": 0x1234, "cellId": int64(0xabcdef), "mobileCountryCode": 245, "mobileNetworkCode": 1}}},
	}
	framesChecker.Result(t, res, prototest.Result{Ack: "\x00\x00\x00\x01", Positions: []prototest.Position{want}})
}
