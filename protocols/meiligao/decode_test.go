package meiligao

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

var (
	checker = prototest.Checker{Protocol: Name}
	now     = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
)

func testProtocol() *Protocol { return &Protocol{now: func() time.Time { return now }} }

func noIO(more model.Attributes) model.Attributes {
	a := model.Attributes{}
	for i := range 5 {
		a["in"+string(rune('1'+i))], a["out"+string(rune('1'+i))] = false, false
	}
	for k, v := range more {
		a[k] = v
	}
	return a
}

func TestDecodeExact(t *testing.T) {
	for _, tc := range []struct {
		name  string
		frame string
		want  prototest.Result
	}{
		{"position", pos7, prototest.Result{UniqueID: "190820157", Positions: []prototest.Position{{
			Time: time.Date(2016, 2, 24, 9, 43, 54, 0, time.UTC), Valid: true, Lat: 19.117698, Lon: 72.855418,
			Speed: 10.1, Course: 188.5, Altitude: 65.2,
			Attributes: noIO(model.Attributes{"in4": true, "adc1": 0, "adc2": 0, "hdop": 0.8, "odometer": int64(36488752)})}}}},
		{"rfid (Traccar's exact values)", rfid, prototest.Result{UniqueID: "63070019470771", Positions: []prototest.Position{{
			Time: time.Date(2006, 6, 28, 12, 3, 40, 0, time.UTC), Valid: true, Lat: 24, Lon: 121,
			Attributes: model.Attributes{"card1": "0010362751", "driverUniqueId": "0010362751"}}}}},
		{"dtc (Traccar's exact value)", dtc, prototest.Result{UniqueID: "65789023543293", Positions: []prototest.Position{{
			Time: now, Outdated: true, Attributes: model.Attributes{"dtcs": "C1E88"}}}}},
		// Wrong CRCs (samples-next.md): decoded and flagged.
		{"login", login, prototest.Result{UniqueID: "123456", ChecksumError: true,
			Reply: string(prototest.Unhex(t, "40400012123456ffffffff400001a99b0d0a"))}},
		{"photo start", photo, prototest.Result{UniqueID: "254748594772", ChecksumError: true,
			Reply: string(prototest.Unhex(t, "40400012254748594772ff88010220aa0d0a"))}},
		{"photo data, not kept", photoData, prototest.Result{UniqueID: "254748594772", ChecksumError: true}},
		{"obd", obd, prototest.Result{UniqueID: "66104020094432", ChecksumError: true, Positions: []prototest.Position{{
			Time: now, Outdated: true, Attributes: model.Attributes{"averageFuelConsumption": 21.83, "battery": 10.1,
				"coolantTemp": -34, "drivingRange": 7.91, "dtcs": 0, "engineLoad": 19.61, "fuelConsumption": 34.26,
				"fuelUsed": 6.55, "hardAccelerationCount": 0, "hardBrakingCount": 0, "obdSpeed": 156, "odometer": 1033.0,
				"rpm": 0, "singleFuelConsumption": 2.69, "throttle": 0.0}}}}},
		{"position, zero length, cell and signal", pos10, prototest.Result{UniqueID: "3358019703581", ChecksumError: true, Positions: []prototest.Position{{
			Time: time.Date(2012, 10, 30, 13, 43, 51, 0, time.UTC), Valid: true, Lat: 9.425042, Lon: -69.246845,
			Course: 23, Altitude: 186,
			Attributes: noIO(model.Attributes{"adc1": 294, "adc2": 255, "hdop": 0.8, "rssi": 6, "odometer": int64(16608121)})}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checker.Decode(t, testProtocol().Decode, string(prototest.Unhex(t, tc.frame)), tc.want)
		})
	}
}

// TestDecodeShared: every shared frame decodes as samples-next.md says:
// positions, answers, and only 0xaa00 left unsupported.
func TestDecodeShared(t *testing.T) {
	for i, f := range shared {
		b := prototest.Unhex(t, f)
		res, err := testProtocol().DecodeDatagram(&protocols.Conn{}, b)
		if err != nil {
			t.Fatalf("frame %d: %v", i+1, err)
		}
		prototest.Storable(t, Name, res, b)
		want := map[int]int{1: 1, 2: 1, 5: 5, 6: 1, 7: 1, 8: 1, 10: 1, 11: 1, 13: 1}[i+1]
		if len(res.Positions) != want || (res.Unsupported != "") != (f == other) {
			t.Errorf("frame %d: %d positions, unsupported %q; want %d", i+1, len(res.Positions), res.Unsupported, want)
		}
		if wantSum := i+1 == 1 || i+1 == 7 || i+1 == 8; res.ChecksumError == wantSum {
			t.Errorf("frame %d: checksum error %v, samples-next.md says the CRC is wrong: %v", i+1, res.ChecksumError, !wantSum)
		}
	}
}

func TestDecodeAlarms(t *testing.T) {
	frame := func(code byte) []byte {
		body := append([]byte{code}, "104648.000,A,0753.5383,N,09822.1778,E,0.00,0,200120,,*1A|0.0|0|0000|0000,0000"...)
		m := message([]byte{0x14, 0x31, 0x90, 0x97, 0x54, 0x69, 0xff}, cmdAlarm, body)
		m[0], m[1] = '$', '$'
		m = m[:len(m)-4]
		m = append(m, byte(crc16(m)>>8), byte(crc16(m)), '\r', '\n')
		return m
	}
	for _, tc := range []struct {
		code  byte
		model string
		want  model.Attributes
	}{
		{0x01, "", model.Attributes{"alarm": "sos"}},
		{0x13, "", model.Attributes{"alarm": "geofenceEnter"}},
		{0x13, "TK218", model.Attributes{"alarm": "geofence"}},
		{0x03, "", model.Attributes{"in3": 1}},
		{0x33, "", model.Attributes{"in3": 0}},
	} {
		res, err := New().Decode(&protocols.Conn{Model: tc.model}, frame(tc.code))
		if err != nil || res.ChecksumError || len(res.Positions) != 1 {
			t.Fatalf("alarm %#x: %+v, %v", tc.code, res, err)
		}
		for k, v := range tc.want {
			if got := res.Positions[0].Attributes[k]; got != v {
				t.Errorf("alarm %#x model %q: %s = %v, want %v", tc.code, tc.model, k, got, v)
			}
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	prototest.DecodeRejects(t, New().Decode, nil, "", "$$", "$$\x00\x11\xab\xcd\xef\x00\x00\x00\x00\x99\x55\x00\x00\r\n")
	// A position that does not parse is an error unless its CRC is wrong.
	bad := message([]byte{0x12, 0x34, 0x56, 0xff, 0xff, 0xff, 0xff}, cmdPosition, []byte("not a position"))
	if _, err := New().Decode(nil, bad); err == nil {
		t.Error("malformed position decoded")
	}
	bad[len(bad)-3]++
	if res, err := New().Decode(nil, bad); err != nil || !res.ChecksumError || len(res.Positions) != 0 {
		t.Errorf("malformed position with a bad CRC: %+v, %v", res, err)
	}
}

func TestHeartbeatAndPhotoEnd(t *testing.T) {
	id := []byte{0x12, 0x34, 0x56, 0xff, 0xff, 0xff, 0xff}
	for _, tc := range []struct {
		cmd        int
		data, want []byte
	}{
		{cmdHeartbeat, nil, message(id, cmdHeartbeat, []byte{1})},
		{cmdPhotoEnd, []byte{2}, message(id, cmdRetransmission, []byte{2, 0, 0})},
	} {
		res, err := New().Decode(nil, message(id, tc.cmd, tc.data))
		if err != nil || string(res.Reply) != string(tc.want) || res.ChecksumError {
			t.Errorf("%#x: %+v, %v; want reply %x", tc.cmd, res, err, tc.want)
		}
	}
}
