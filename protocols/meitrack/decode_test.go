package meitrack

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

var checker = prototest.Checker{Protocol: Name, SpeedTolerance: 1e-9}

// wire is a frame of frames_test.go as bytes: text as is, binary in hex.
func wire(t testing.TB, f string) []byte {
	if strings.HasPrefix(f, "$$") {
		return []byte(f)
	}
	return prototest.Unhex(t, f)
}

func cell(mcc, mnc int, lac, cid int64, rssi int) map[string]any {
	return network(cellTower(mcc, mnc, lac, cid, rssi))
}

// TestDecodeExact checks every value of the frames samples-next.md gives
// exact values for, and of one frame of each other kind.
func TestDecodeExact(t *testing.T) {
	for _, tc := range []struct {
		name  string
		frame string
		want  prototest.Result
	}{
		{"AAA K157", aaaK157, prototest.Result{UniqueID: "866771027160687", Positions: []prototest.Position{{
			Time: time.Date(2016, 4, 12, 15, 16, 56, 0, time.UTC), Valid: true, Lat: 37.040231, Lon: 10.042391,
			Course: 48, Altitude: 21,
			Attributes: model.Attributes{"adc1": 0, "adc2": 0, "adc3": 0, "battery": 26.31, "event": 3, "fuel": 0.0,
				"hdop": 0.8, "input": 4, "odometer": int64(1035518), "output": 0, "power": 9.95, "runtime": "774980",
				"sat": 10, "temp0": 18.06},
			Network: cell(605, 2, 0x10, 0x307B, 11)}}}},
		{"AAA I152, event 37 carries the driver", aaaI152, prototest.Result{UniqueID: "013949004569813", Positions: []prototest.Position{{
			Time: time.Date(2015, 2, 8, 17, 34, 14, 0, time.UTC), Valid: true, Lat: 54.739468, Lon: 25.273648,
			Course: 73, Altitude: 165,
			Attributes: model.Attributes{"adc1": 3, "adc2": 3, "adc3": 0, "battery": 22.6, "driverUniqueId": "006380DF",
				"event": 37, "fuel": 0.08, "hdop": 1.5, "input": 0, "odometer": int64(74), "output": 0, "power": 0.02,
				"runtime": "3381", "sat": 5},
			Network: cell(246, 1, 0x65, 0x118A, 24)}}}},
		// Wrong checksum (samples-next.md): decoded, flagged.
		{"AAA A158, 14-digit IMEI", aaaA158, prototest.Result{UniqueID: "79007001520234", ChecksumError: true, Positions: []prototest.Position{{
			Time: time.Date(2015, 7, 30, 18, 48, 34, 0, time.UTC), Valid: true, Lat: 40.99637, Lon: -8.575065,
			Course: 1, Altitude: 173,
			Attributes: model.Attributes{"battery": 26.05, "event": 35, "eventData": "00000001", "hdop": 1.3, "input": 32,
				"odometer": int64(32573389), "output": 0, "power": 0.0, "runtime": "31405012", "sat": 8},
			Network: cell(268, 3, 0x2BC0, 0x250B, 24)}}}},
		{"CCE one record", cce1, prototest.Result{UniqueID: "865789024140495", Positions: []prototest.Position{{
			Time: time.Date(2018, 2, 12, 0, 41, 20, 0, time.UTC), Valid: true, Lat: 47.068393, Lon: 15.440636,
			Course: 329, Altitude: 411,
			Attributes: model.Attributes{"battery": 4.17, "event": 31, "hdop": 12, "input": 0, "odometer": int64(247215),
				"power": 5.1, "rssi": 20, "runtime": int64(1995927), "sat": 7},
			Network: cell(232, 3, 12041, 1582, -73)}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checker.Decode(t, New().Decode, string(wire(t, tc.frame)), tc.want)
		})
	}
}

// TestDecodeShared runs every shared frame: its answer, checksum flag,
// position count and the values Traccar's test asserts.
func TestDecodeShared(t *testing.T) {
	for _, tc := range []struct {
		name      string
		frame     string
		reply     string
		ack       string
		result    string
		badSum    bool
		positions int
		check     func(t *testing.T, ps []*model.Position)
	}{
		{name: "CCE with engine hours", frame: cceHours, badSum: true, positions: 1, check: func(t *testing.T, ps []*model.Position) {
			if h := ps[0].Attributes["hours"]; h != int64(644515*60000) {
				t.Errorf("hours %v, want %d", h, 644515*60000)
			}
		}},
		{name: "D82 answer", frame: textD82, result: "D82,0"},
		{name: "CCE three records", frame: cce3, positions: 3},
		{name: "D00 photo packet cut short", frame: photoD00, badSum: true},
		{name: "CCE one record", frame: cce1, positions: 1},
		{name: "CCE three records with cells", frame: cce3b, positions: 3},
		{name: "AAA K157", frame: aaaK157, positions: 1},
		{name: "D03 photo taken", frame: textD03, reply: "@@O46,353358017784062,D00,camera_picture.jpg,0*28\r\n"},
		{name: "AAA A158", frame: aaaA158, badSum: true, positions: 1, check: func(t *testing.T, ps []*model.Position) {
			checker.Position(t, ps[0], prototest.Position{Time: time.Date(2015, 7, 30, 18, 48, 34, 0, time.UTC), Valid: true,
				Lat: 40.99637, Lon: -8.57507, Course: 1, Altitude: 173, Attributes: ps[0].Attributes, Network: ps[0].Network})
		}},
		{name: "AAA I152", frame: aaaI152, positions: 1},
		{name: "AAA j138", frame: aaaJ138, positions: 1},
		{name: "AAA K146", frame: aaaK146, positions: 1},
		{name: "AFF", frame: affJ163, badSum: true, positions: 1, check: func(t *testing.T, ps []*model.Position) {
			if p := ps[0]; p.Latitude != 58.588926 || p.Longitude != 16.180473 || p.Attributes["event"] != 35 {
				t.Errorf("AFF read %v %v event %v: its record number was not skipped", p.Latitude, p.Longitude, p.Attributes["event"])
			}
		}},
		{name: "CCC 18 records", frame: ccc18, ack: "@@G28,369800013460674,CCC,18*1A\r\n", positions: 18},
		{name: "AAC", frame: textAAC, reply: "@@z27,861451040910625,AAC,1*0B\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := wire(t, tc.frame)
			res, err := New().DecodeDatagram(&protocols.Conn{}, b)
			if err != nil {
				t.Fatal(err)
			}
			if string(res.Reply) != tc.reply || string(res.Ack) != tc.ack || res.CommandResult != tc.result ||
				res.ChecksumError != tc.badSum || res.Unsupported != "" {
				t.Errorf("reply %q ack %q result %q checksum error %v unsupported %q, want %q %q %q %v",
					res.Reply, res.Ack, res.CommandResult, res.ChecksumError, res.Unsupported, tc.reply, tc.ack, tc.result, tc.badSum)
			}
			if len(res.Positions) != tc.positions {
				t.Fatalf("%d positions, want %d", len(res.Positions), tc.positions)
			}
			prototest.Storable(t, Name, res, b)
			if tc.check != nil {
				tc.check(t, res.Positions)
			}
		})
	}
}

// TestDecodeCCCRecord checks every value of the first CCC record.
func TestDecodeCCCRecord(t *testing.T) {
	res, err := New().Decode(nil, wire(t, ccc18))
	if err != nil || len(res.Positions) != 18 {
		t.Fatal(len(res.Positions), err)
	}
	checker.Position(t, res.Positions[0], prototest.Position{
		Time: time.Date(2014, 1, 3, 12, 56, 12, 0, time.UTC), Lat: 50.651916, Lon: 14.727517, Altitude: 280,
		Attributes: model.Attributes{"adc1": 3, "alarm": "sos", "battery": 4.17, "event": 1, "hdop": 1.2,
			"odometer": int64(178157), "power": 1218, "runtime": int64(93641), "sat": 0, "status": 1},
		Network: cell(230, 1, 14408, 25943, 19)})
}

// TestPhotoTransfer: the device sends eight packets, then waits to be
// asked for the next; the last packet is not answered. The connection
// joins the packets, in order from the first, into the picture the last
// one's position carries.
func TestPhotoTransfer(t *testing.T) {
	packet := func(index, total int, data string) []byte {
		s := fmt.Sprintf("$$A99,864507031219974,D00,pic.jpg,%d,%d,%s*", total, index, data)
		return []byte(s + checksum([]byte(s)) + "\r\n")
	}
	chunk := func(index int) string { return fmt.Sprintf("<%d>", index) }
	whole := func(indexes ...int) string {
		var b strings.Builder
		for _, i := range indexes {
			b.WriteString(chunk(i))
		}
		return b.String()
	}
	big := strings.Repeat("\xff", 90_000)
	cases := []struct {
		name    string
		indexes []int
		data    func(int) string
		picture string // "": no position
	}{
		{"ten packets in order", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, chunk, whole(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)},
		{"a transfer started again", []int{0, 1, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, chunk, whole(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)},
		{"joined midway", []int{5, 6, 7, 8, 9}, chunk, ""},
		{"a packet missed", []int{0, 1, 2, 4, 5, 6, 7, 8, 9}, chunk, ""},
		{"over 2 MiB", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, func(int) string { return big + big + big }, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			conn := &protocols.Conn{UniqueID: "864507031219974"} // the listener has identified the device
			for n, index := range tc.indexes {
				res, err := New().Decode(conn, packet(index, 10, tc.data(index)))
				want := ""
				if index == 7 {
					want = "@@O35,864507031219974,D00,pic.jpg,8*AA\r\n"
				}
				if err != nil || string(res.Reply) != want || res.ChecksumError {
					t.Fatalf("packet %d: %+v, %v; want reply %q", index, res, err, want)
				}
				last := n == len(tc.indexes)-1
				if !last && len(res.Positions) != 0 {
					t.Fatalf("packet %d yields a position", index)
				}
				if last && tc.picture == "" && len(res.Positions) != 0 {
					t.Fatalf("a picture from an incomplete transfer")
				}
				if last && tc.picture != "" {
					if len(res.Positions) != 1 || !res.Positions[0].Outdated || res.Positions[0].Media == nil ||
						string(res.Positions[0].Media.Data) != tc.picture || res.Positions[0].Media.Key != "image" || res.Positions[0].Media.Type != "image/jpeg" {
						t.Fatalf("last packet: %+v", res.Positions)
					}
				}
			}
		})
	}
	// A connection the listener has not identified keeps no picture.
	stranger := &protocols.Conn{}
	for index := range 10 {
		if res, err := New().Decode(stranger, packet(index, 10, chunk(index))); err != nil || len(res.Positions) != 0 {
			t.Fatalf("unidentified, packet %d: %+v, %v", index, res, err)
		}
	}
	// Without a connection (a datagram) the transfer is answered alike.
	if res, err := New().Decode(nil, packet(7, 10, "x")); err != nil || !strings.Contains(string(res.Reply), "pic.jpg,8") {
		t.Errorf("datagram: %+v, %v", res, err)
	}
}

func TestDecodeOther(t *testing.T) {
	sum := func(s string) []byte { return []byte(s + checksum([]byte(s)) + "\r\n") }
	res, err := New().Decode(nil, sum("$$A30,864507031219974,C01,OK*"))
	if err != nil || res.CommandResult != "C01,OK" {
		t.Errorf("C01 answer: %+v, %v", res, err)
	}
	res, err = New().Decode(nil, sum("$$A28,864507031219974,XYZ,1*"))
	if err != nil || res.Unsupported == "" || res.UniqueID != "864507031219974" {
		t.Errorf("unknown type: %+v, %v", res, err)
	}
	// A report that does not parse is an error, unless its checksum is
	// wrong too: then it is a corrupt frame for the inbox.
	bad := sum("$$A40,864507031219974,AAA,35,north,east*")
	if _, err := New().Decode(nil, bad); err == nil {
		t.Error("malformed AAA decoded")
	}
	bad[len(bad)-3]++
	if res, err := New().Decode(nil, bad); err != nil || !res.ChecksumError || len(res.Positions) != 0 {
		t.Errorf("malformed AAA with a bad checksum: %+v, %v", res, err)
	}
	prototest.DecodeRejects(t, New().Decode, nil, "", "$$", "##A28,1", "$$A28,12,AAA,1*00\r\n")
}

// TestAnalogScales: the power and battery ADC counts convert by model.
func TestAnalogScales(t *testing.T) {
	for model, want := range map[string][2]float64{
		"":       {0x0A47 / 100.0, 0x03E3 / 100.0},
		"MVT380": {0x0A47 * 6.0 / 1024, 0x03E3 * 48.0 / 1024},
		"T1":     {0x0A47 * 6.6 / 4096, 0x03E3 * 52.8 / 4096},
		"MT90":   {0x0A47 * 6.6 / 4096, 0x03E3},
	} {
		res, err := New().Decode(&protocols.Conn{Model: model}, []byte(aaaK157))
		if err != nil {
			t.Fatal(err)
		}
		a := res.Positions[0].Attributes
		if a["battery"] != want[0] || a["power"] != want[1] {
			t.Errorf("%s: battery %v power %v, want %v", model, a["battery"], a["power"], want)
		}
	}
}
