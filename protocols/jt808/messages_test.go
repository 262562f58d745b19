package jt808

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

var terminal = []byte{0x01, 0x23, 0x45, 0x67, 0x89, 0x01} // uniqueId 12345678901

// locationBody is a 0x0200 body: alarm flags, status, 22.5 N 114.25 E,
// 100 m, 36 km/h, course 90, 2024-05-06 15:08:09 GMT+8, then items.
func locationBody(alarms, status uint32, items ...byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, alarms)
	b = binary.BigEndian.AppendUint32(b, status)
	b = binary.BigEndian.AppendUint32(b, 22500000)
	b = binary.BigEndian.AppendUint32(b, 114250000)
	b = append(b, 0, 100, 0x01, 0x68, 0, 90, 0x24, 0x05, 0x06, 0x15, 0x08, 0x09)
	return append(b, items...)
}

func decodeOne(t *testing.T, c *protocols.Conn, frame []byte) protocols.Result {
	t.Helper()
	res, err := (&Protocol{now: prototest.Clock}).Decode(c, frame)
	if err != nil {
		t.Fatalf("Decode(%x): %v", frame, err)
	}
	return res
}

// TestAlarmBits: each alarm flag of the standard gives Traccar's alarm.
func TestAlarmBits(t *testing.T) {
	cases := []struct {
		bit   int
		model string
		want  string
	}{
		{0, "", "sos"}, {1, "", "overspeed"}, {2, "", "fatigueDriving"}, {4, "", "fault"},
		{5, "", "gpsAntennaCut"}, {6, "", "gpsAntennaCut"}, {7, "", "lowBattery"}, {8, "", "powerOff"},
		{9, "", "fault"}, {10, "", "fault"}, {11, "", "fault"}, {15, "", "vibration"},
		{16, "", "tampering"}, {17, "", "tampering"}, {18, "", "lowBattery"}, {19, "", "parking"},
		{20, "", "geofence"}, {26, "", "general"}, {28, "", "movement"}, {29, "", "accident"},
		{30, "", "accident"}, {29, "VL300", ""}, {0, "G-360P", "removing"}, {4, "G-508P", "removing"},
		{1, "G-360P", "tampering"}, {16, "AL300", "movement"}, {0, "GL100", ""}, {3, "", ""},
	}
	for _, tc := range cases {
		frame := message(msgLocation, -1, terminal, false, locationBody(1<<tc.bit, 2))
		res := decodeOne(t, &protocols.Conn{Model: tc.model}, frame)
		if got, _ := res.Positions[0].Attributes["alarm"].(string); got != tc.want {
			t.Errorf("bit %d model %q: alarm %q, want %q", tc.bit, tc.model, got, tc.want)
		}
	}
}

func TestMessages(t *testing.T) {
	at := utc("2024-05-06 07:08:09")
	base := model.Attributes{"ignition": true, "blocked": false, "charge": false}
	with := func(kv ...any) model.Attributes {
		a := model.Attributes{}
		for k, v := range base {
			a[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			a[kv[i].(string)] = kv[i+1]
		}
		return a
	}
	fix := func(attrs model.Attributes) prototest.Position {
		return prototest.Position{Time: at, Valid: true, Lat: 22.5, Lon: 114.25, Speed: 36 / 1.852, Course: 90, Altitude: 100, Attributes: attrs}
	}
	ack := func(typ int) string {
		return string(message(msgGeneralResponse, -1, terminal, false, []byte{0, 0, byte(typ >> 8), byte(typ), 0}))
	}
	cases := []struct {
		name  string
		frame []byte
		want  prototest.Result
	}{
		{"heartbeat with battery, signal and status", message(msgHeartbeat, -1, terminal, false, []byte{80, 25, 1}),
			prototest.Result{UniqueID: "12345678901", Ack: ack(msgHeartbeat), Positions: []prototest.Position{
				{Outdated: true, Attributes: model.Attributes{"batteryLevel": 80, "rssi": 25, "status": 1}}}}},
		{"time request", message(msgTimeRequest, -1, terminal, false, nil),
			prototest.Result{UniqueID: "12345678901", Reply: string(message(msgTimeResponse, -1, terminal, false, []byte{0x07, 0xE8, 5, 6, 7, 8, 9, 0}))}},
		{"logout", message(msgLogout, -1, terminal, false, nil),
			prototest.Result{UniqueID: "12345678901", Reply: ack(msgLogout)}},
		{"the terminal's answer to a command", message(msgTerminalResponse, -1, terminal, false, []byte{0, 1, 0x81, 0x05, 0}),
			prototest.Result{UniqueID: "12345678901"}},
		{"location with ignition, odometer, fuel, signal, satellites", message(msgLocation, -1, terminal, false,
			locationBody(0, 3, 0x01, 4, 0, 0, 0x30, 0x39, 0x02, 2, 0x01, 0xF4, 0x30, 1, 20, 0x31, 1, 9)),
			prototest.Result{UniqueID: "12345678901", Ack: ack(msgLocation), Positions: []prototest.Position{
				fix(with("odometer", int64(1234500), "fuel", 50.0, "rssi", 20, "sat", 9))}}},
		{"south, west, item cut short", message(msgLocation, -1, terminal, false, locationBody(0, 0x0F, 0x69, 1, 0x01)),
			prototest.Result{UniqueID: "12345678901", Ack: ack(msgLocation), Positions: []prototest.Position{
				{Time: at, Valid: true, Lat: -22.5, Lon: -114.25, Speed: 36 / 1.852, Course: 90, Altitude: 100, Attributes: base}}}},
		{"18-byte tail of odometer, battery and signal", message(msgLocation, -1, terminal, false,
			locationBody(0, 3, 0, 0, 0, 0, 0, 0, 0, 12, 0, 41, 0, 0, 0, 0, 19, 0, 0, 0)),
			prototest.Result{UniqueID: "12345678901", Ack: ack(msgLocation), Positions: []prototest.Position{
				fix(with("odometer", int64(12000), "battery", 4.1, "rssi", 19))}}},
		{"cells and Wi-Fi", message(msgLocation, -1, terminal, false, locationBody(0, 3,
			0xEC, 7, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF, 0xC4,
			0xF0, 13, 0x01, 0xCC, 0, 0, 0, 0, 0x30, 0x39, 0, 0, 0x10, 0x00, 0x40)),
			prototest.Result{UniqueID: "12345678901", Ack: ack(msgLocation), Positions: []prototest.Position{{
				Time: at, Valid: true, Lat: 22.5, Lon: 114.25, Speed: 36 / 1.852, Course: 90, Altitude: 100, Attributes: base,
				Network: map[string]any{"radioType": "gsm", "considerIp": false,
					"cellTowers":       []map[string]any{{"mobileCountryCode": 460, "mobileNetworkCode": 0, "locationAreaCode": 4096, "cellId": int64(12345), "signalStrength": 64}},
					"wifiAccessPoints": []map[string]any{{"macAddress": "aa:bb:cc:dd:ee:ff", "signalStrength": -60}}}}}}},
		{"no fix yet: a zero time", message(msgLocation, -1, terminal, false, append(locationBody(1, 0)[:22], 0, 0, 0, 0, 0, 0)),
			prototest.Result{UniqueID: "12345678901", Ack: ack(msgLocation), Positions: []prototest.Position{
				{Outdated: true, Attributes: model.Attributes{"alarm": "sos", "ignition": false, "blocked": false, "charge": false}}}}},
		{"2019 header: the answer echoes version and id", prototest.Unhex(t, register2019),
			prototest.Result{UniqueID: "866496077582164", Reply: hx("7e81004017010000086649607758216400005218003030303030383636343936303737353832313634bf7e")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			prototest.OneFrame(t, New().Split, tc.frame)
			checker.Result(t, decodeOne(t, &protocols.Conn{}, tc.frame), tc.want)
		})
	}
}

func TestRefused(t *testing.T) {
	// A frame of Traccar's tests whose check byte does not match.
	bad := prototest.Unhex(t, "7e02000032013511221122000700000000000c000301578cc006ca3a5c00470000000014072317201501040000000030011631010bd17e")
	res := decodeOne(t, &protocols.Conn{}, bad)
	if !res.ChecksumError || res.UniqueID != "13511221122" || len(res.Positions) != 1 {
		t.Errorf("bad check: %+v", res)
	}
	res = decodeOne(t, &protocols.Conn{}, message(0x0800, -1, terminal, false, []byte{1, 2, 3}))
	if res.Unsupported == "" || res.UniqueID != "12345678901" || res.Reply != nil || res.Ack != nil {
		t.Errorf("multimedia event: %+v, want Unsupported and no answer", res)
	}
	res = decodeOne(t, &protocols.Conn{}, message(msgTransparent, -1, terminal, false, []byte{0x99, 1}))
	if !strings.Contains(res.Unsupported, "0x99") || res.Ack != nil {
		t.Errorf("transparent type 0x99: %+v", res)
	}
	if _, err := New().Decode(&protocols.Conn{}, []byte("(no id here)")); err == nil {
		t.Error("a text line naming no terminal, before any frame, decoded")
	}
	for _, frame := range []string{"7e00027e", "7e0002000004304832546500b77d03ca7e", "7e0200000004304832546500b7497e"} {
		if _, err := New().Decode(&protocols.Conn{}, prototest.Unhex(t, frame)); err == nil {
			t.Errorf("%s decoded", frame)
		}
	}
}
