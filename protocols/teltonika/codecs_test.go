package teltonika

import (
	"encoding/hex"
	"testing"

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
