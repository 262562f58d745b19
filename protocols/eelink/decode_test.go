package eelink

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

var check = prototest.Checker{Protocol: Name, SpeedTolerance: 1e-9}

func unix(s int64) time.Time { return time.Unix(s, 0).UTC() }

func tower(mcc, mnc, lac int, cid int64) map[string]any {
	return map[string]any{"mobileCountryCode": mcc, "mobileNetworkCode": mnc, "locationAreaCode": lac, "cellId": cid}
}

func withSignal(t map[string]any, s int) map[string]any { t["signalStrength"] = s; return t }

func cells(towers ...map[string]any) map[string]any {
	return map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": towers}
}

// TestDecodeSharedFrames: every TCP packet of samples-next.md with
// Traccar's expected values and the other fields as the layout gives them.
func TestDecodeSharedFrames(t *testing.T) {
	tests := []struct {
		name, frame string
		want        prototest.Result
	}{
		{"0x01 login", login, prototest.Result{UniqueID: "352544071750518", Reply: string(prototest.Unhex(t, "6767010009007b6b05ca95000100"))}},
		{"0x12 normal, temp2 28.75", normalFrame, prototest.Result{Ack: string(prototest.Unhex(t, "6767120002000e")), Positions: []prototest.Position{{
			Time: unix(0x5C37387C), Valid: true, Lat: 82108852 / 1800000.0, Lon: -132558936 / 1800000.0, Altitude: 22, Speed: 19 / 1.852, Course: 148,
			Network: cells(withSignal(tower(302, 880, 11655, 105200750), 91)),
			Attributes: model.Attributes{"index": 14, "sat": 8, "ignition": true, "armed": false, "motion": true, "blocked": true, "gps": true,
				"status": 0x066F, "battery": 4.447, "adc0": 1393, "adc1": 0, "odometer": int64(1771135), "steps": 787,
				"temp1": 0.0, "humidity": 0.0, "illuminance": 0.0, "co2": int64(0), "temp2": 28.75}}}}},
		{"0x80 location answer", downlink, prototest.Result{Ack: string(prototest.Unhex(t, "67678000020000")), Positions: []prototest.Position{{
			Time: time.Date(2017, 12, 2, 11, 29, 43, 0, time.UTC), Valid: true, Lat: 31.83955, Lon: -82.61346,
			Attributes: model.Attributes{"index": 0}}}}},
		{"0x14 warning", warning, prototest.Result{Ack: string(prototest.Unhex(t, "67671400020051")), Positions: []prototest.Position{{
			Time: unix(0x5784CC24), Valid: true, Lat: 0x0246479B / 1800000.0, Lon: 0x07D05A06 / 1800000.0, Altitude: 24, Speed: 1 / 1.852,
			Network: map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": []map[string]any{withSignal(tower(405, 927, 1121, 11461), 47)},
				"wifiAccessPoints": []map[string]any{{"macAddress": "64:66:b3:91:60:4a", "signalStrength": 73}}},
			Attributes: model.Attributes{"index": 81, "sat": 6, "alarm": "sos", "armed": false, "motion": false, "charge": false, "gps": false, "status": 0x89}}}}},
		{"0x02 gps", gps, prototest.Result{Positions: []prototest.Position{{
			Time: unix(0x569FC361), Valid: true, Lat: 0x0517A091 / 1800000.0, Lon: 0x020B1160 / 1800000.0, Course: 25,
			Network:    cells(tower(216, 30, 91, 1094)),
			Attributes: model.Attributes{"index": 187, "ignition": true, "armed": true, "status": 31, "battery": 4.464, "rssi": 50, "adc1": 0, "adc2": 0}}}}},
		{"0x04 alarm", alarm, prototest.Result{Ack: string(prototest.Unhex(t, "676704000200b7")), Positions: []prototest.Position{{
			Time: unix(0x569FC302), Lat: 0x0517A2D7 / 1800000.0, Lon: 0x020B08E1 / 1800000.0,
			Network: cells(tower(216, 30, 91, 1094)), Attributes: model.Attributes{"index": 183, "alarm": "vibration"}}}}},
		{"0x03 heartbeat", heartbeat, prototest.Result{Ack: string(prototest.Unhex(t, "67670300020028")), Positions: []prototest.Position{{
			Outdated: true, Attributes: model.Attributes{"ignition": false, "armed": false, "blocked": false, "status": 0x6A}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := pinned().Decode(&protocols.Conn{}, prototest.Unhex(t, tt.frame))
			if err != nil {
				t.Fatal(err)
			}
			check.Result(t, res, tt.want)
		})
	}
}

// TestDecodeWithoutFix: packets without a fix are outdated positions that
// keep the device time they carry (the ingest supplies the location).
func TestDecodeWithoutFix(t *testing.T) {
	tests := []struct {
		name, frame, ack string
		deviceTime       time.Time
		network          any
		attrs            model.Attributes
	}{
		{"0x14 warning, alarm removing", warningNoFix, "67671400020003", unix(0x5F74A294),
			cells(withSignal(tower(310, 260, 22801, 10950145), 34)),
			model.Attributes{"index": 3, "alarm": "removing", "gps": true, "status": 0x0400}},
		{"0x05 state", stateNoFix, "6767050002001f", unix(0x59643640), cells(tower(460, 0, 9365, 5152)),
			model.Attributes{"index": 31, "event": 1, "ignition": true, "armed": false, "blocked": false, "status": 0x6E}},
		{"0x07 obd", obd, "67670700020010", unix(0x50E22814), nil,
			model.Attributes{"fuelConsumption": int64(0), "odometer": int64(0), "fuel": int64(0)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := New().Decode(&protocols.Conn{}, prototest.Unhex(t, tt.frame))
			if err != nil || len(res.Positions) != 1 || string(res.Ack) != string(prototest.Unhex(t, tt.ack)) || res.Reply != nil {
				t.Fatalf("%+v, %v", res, err)
			}
			p := res.Positions[0]
			if !p.Outdated || p.Valid || !p.FixTime.IsZero() || !p.DeviceTime.Equal(tt.deviceTime) || p.Latitude != 0 || p.Longitude != 0 {
				t.Errorf("outdated %v valid %v fix %v device %v at %v,%v", p.Outdated, p.Valid, p.FixTime, p.DeviceTime, p.Latitude, p.Longitude)
			}
			rest := *p
			rest.DeviceTime = time.Time{} // checked above
			check.Position(t, &rest, prototest.Position{Outdated: true, Network: tt.network, Attributes: tt.attrs})
		})
	}
}

// TestDecodeDatagrams: the UDP forms, answered under the EL header in one
// datagram (Traccar sends one datagram per answer).
func TestDecodeDatagrams(t *testing.T) {
	res, err := pinned().DecodeDatagram(&protocols.Conn{}, prototest.Unhex(t, udpLogin))
	if err != nil || res.UniqueID != "352544071677471" || len(res.Positions) != 0 || res.Ack != nil || res.ChecksumError ||
		string(res.Reply) != string(prototest.Unhex(t, "454c0018e27c0352544071677471676701000900026b05ca95000100")) {
		t.Errorf("login: %+v, %v", res, err)
	}
	res, err = New().DecodeDatagram(&protocols.Conn{}, prototest.Unhex(t, udpNormal))
	if err != nil || res.UniqueID != "354679090044671" || len(res.Positions) != 9 || res.Reply != nil || res.ChecksumError {
		t.Fatalf("normal: %+v, %v", res, err)
	}
	wantAck := "454c0049e9190354679090044671" + "676712000221316767120002213267671200022133676712000221346767120002213567671200022136676712000221376767120002213867671200022139"
	if got := string(res.Ack); got != string(prototest.Unhex(t, wantAck)) {
		t.Errorf("ack %x, want %s", got, wantAck)
	}
	check.Position(t, res.Positions[0], prototest.Position{Time: unix(0x5F3CF435), Valid: true,
		Lat: -57355402 / 1800000.0, Lon: 0x0C79328A / 1800000.0, Altitude: 297, Course: 0,
		Network: cells(withSignal(tower(505, 1, 36915, 151345165), 46)),
		Attributes: model.Attributes{"index": 0x2131, "sat": 10, "ignition": true, "armed": false, "motion": false, "blocked": true, "gps": true,
			"status": 0x046F, "battery": 4.49, "adc0": 1260, "adc1": 0, "odometer": int64(52423), "steps": 0,
			"temp1": 0.0, "humidity": 0.0, "illuminance": 0.0, "co2": int64(0), "temp2": 0.0}})
	for i, p := range res.Positions {
		if p.Attributes["index"] != 0x2131+i {
			t.Errorf("position %d index %v", i, p.Attributes["index"])
		}
	}
	// A datagram whose checksum does not match is decoded and flagged.
	bad := prototest.Unhex(t, udpLogin)
	bad[5] ^= 1
	if res, err := New().DecodeDatagram(&protocols.Conn{}, bad); err != nil || !res.ChecksumError || res.UniqueID != "352544071677471" {
		t.Errorf("bad checksum: %+v, %v", res, err)
	}
}

// TestCommandAnswer: a 0x80 answer that is not a location is the command
// result.
func TestCommandAnswer(t *testing.T) {
	frame := append(prototest.Unhex(t, "676780000c00070100000000"), "RELAY:OK"...)
	frame[4] = byte(len(frame) - 5)
	res, err := New().Decode(&protocols.Conn{}, frame)
	if err != nil || res.CommandResult != "RELAY:OK" || len(res.Positions) != 0 || string(res.Ack) != string(prototest.Unhex(t, "67678000020007")) {
		t.Errorf("%+v, %v", res, err)
	}
}

func TestDecodeUnsupported(t *testing.T) {
	for _, h := range []string{"676781000400010102", "67671e00020001", "67671f0003000100"} {
		res, err := New().Decode(&protocols.Conn{}, prototest.Unhex(t, h))
		if err != nil || res.Unsupported == "" || res.Ack != nil || len(res.Positions) != 0 {
			t.Errorf("%s: %+v, %v", h, res, err)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	prototest.DecodeRejects(t, New().Decode, nil, "",
		string(prototest.Unhex(t, "676701000a0001035254407175")),         // login cut short
		string(prototest.Unhex(t, "676701000c007bf3525440717505180104")), // not BCD
		string(prototest.Unhex(t, "676702000400bb569f")),                 // GPS cut short
		string(prototest.Unhex(t, "6767070008001050e2281400ff")),         // OBD not whole records
		string(prototest.Unhex(t, login+"00")),
	)
	prototest.DecodeRejects(t, New().DecodeDatagram, nil, "EL", login,
		string(prototest.Unhex(t, "454c0027e753f35254407167747167670100180002035254407167747100200205020500010432000086bd")),
		string(prototest.Unhex(t, "454c0028e753035254407167747167670100180002035254407167747100200205020500010432000086bd")))
}

func BenchmarkDecode(b *testing.B) {
	prototest.BenchDecode(b, New().Decode, prototest.Unhex(b, normalFrame))
}
