package jt600

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

var check = prototest.Checker{Protocol: Name, SpeedTolerance: 1e-9}

func at(s string) time.Time {
	t, err := time.Parse("2006-01-02 15:04:05", s)
	if err != nil {
		panic(err)
	}
	return t
}

func cell(cid int64, lac, signal int) map[string]any {
	return map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": []map[string]any{
		{"cellId": cid, "locationAreaCode": lac, "signalStrength": signal}}}
}

// uReport is the location of the shared U02/U03/U06 frames.
func uReport() prototest.Position {
	return prototest.Position{Time: at("2012-08-04 18:53:02"), Valid: true, Lat: 22.564025, Lon: 113.242329,
		Speed: 5 * mphToKnots, Course: 152, Network: cell(10133, 5173, 22),
		Attributes: model.Attributes{"sat": 9, "batteryLevel": 32, "status": 3, "odometer": int64(100000), "index": 1}}
}

// TestDecodeSharedFrames: every jt600 frame of samples-next.md, with
// Traccar's expected values where it states them and the values the
// manufacturer's layout gives for every other field.
func TestDecodeSharedFrames(t *testing.T) {
	tests := []struct {
		name, frame string
		hex         bool
		want        prototest.Result
	}{
		{"WLNET temperature sensor", peripheralFrame, true, prototest.Result{UniqueID: "8054201973", Positions: []prototest.Position{{
			Time: at("2025-02-28 08:59:53"), Valid: true, Lat: -(25 + 16.9288/60), Lon: -(57 + 32.794/60),
			Attributes: model.Attributes{"sensorBattery": 3.2, "sensorBatteryLevel": 100, "sensorRssi": -71, "temp1": 28.5, "humidity": 67}}}}},
		{"WLNET temp1 27.5", temperatureHex, true, prototest.Result{UniqueID: "7500313609", Positions: []prototest.Position{{
			Time: at("2019-07-22 16:31:18"), Lat: 22 + 35.0966/60, Lon: 113 + 54.9495/60, Speed: 25, Course: 70,
			Attributes: model.Attributes{"sensorBattery": 2.79, "sensorBatteryLevel": 98, "sensorRssi": -60, "temp1": 27.5, "humidity": 71}}}}},
		{"P45 lock event", lockEvent, false, prototest.Result{UniqueID: "8000632862", Ack: "(P69,0,9)", Positions: []prototest.Position{{
			Time: at("2022-03-29 13:24:12"), Valid: true, Lat: -25.28217, Lon: -57.54683,
			Attributes: model.Attributes{"eventSource": 5}}}}},
		{"binary short, type 2", shortFrame, true, prototest.Result{UniqueID: "6240901961", Positions: []prototest.Position{{
			Time: at("2017-07-19 03:49:36"), Valid: true, Lat: 31 + 27.7203/60, Lon: 74 + 23.5752/60, Speed: 29, Course: 176,
			Attributes: model.Attributes{"ignition": false, "door": false, "charge": true, "blocked": true,
				"alarm": "gpsAntennaCut,overspeed,tow", "odometer": int64(30347000), "fuel": 8}}}}},
		{"binary long, answer asked", longFrame, true, prototest.Result{UniqueID: "7560503589", Ack: "(P35)", Positions: []prototest.Position{{
			Time: at("2016-09-28 01:15:28"), Lat: -(6 + 8.675/60), Lon: 106 + 53.335/60, Network: cell(20375, 127, 22),
			Attributes: model.Attributes{"odometer": int64(10000), "sat": 0, "blocked": true, "status": 0xE1, "charge": true}}}}},
		{"U02", u02, false, prototest.Result{UniqueID: "3301210003", Ack: "(S39)", Positions: []prototest.Position{uReport()}}},
		{"U03", u03, false, prototest.Result{UniqueID: "3301210003", Ack: "(S39)", Positions: []prototest.Position{uReport()}}},
		{"U06 alarm report", u06, false, prototest.Result{UniqueID: "3301210003", Ack: "(S20)", Positions: []prototest.Position{uReport()}}},
		{"@JT heartbeat", heartbeat, false, prototest.Result{UniqueID: "3460311327"}},
		{"W01", w01, false, prototest.Result{UniqueID: "3110312099", Positions: []prototest.Position{{
			Time: at("2011-05-04 06:37:36"), Valid: true, Lat: 22 + 32.9961/60, Lon: 114 + 4.6204/60, Speed: 4 * kphToKnots, Course: 7,
			Attributes: model.Attributes{"power": 100.0, "gps": 4, "rssi": 17, "alertType": 1}}}}},
		{"U01 without a fix", u01NoFix, false, prototest.Result{UniqueID: "3330104377", Ack: "(S39)", Positions: []prototest.Position{{
			Outdated: true, Network: cell(741, 14, 22),
			Attributes: model.Attributes{"sat": 0, "batteryLevel": 0, "status": 1 << 9, "odometer": int64(0), "index": 206}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			frame := tt.frame
			if tt.hex {
				frame = string(prototest.Unhex(t, frame))
			}
			res, err := New().Decode(&protocols.Conn{}, []byte(frame))
			if err != nil {
				t.Fatal(err)
			}
			if res.Unsupported != "" {
				t.Fatalf("unsupported: %s", res.Unsupported)
			}
			check.Result(t, res, tt.want)
		})
	}
}

// TestDecodeUnsupported: JT600 messages fleetd does not decode are named,
// not answered and not stored.
func TestDecodeUnsupported(t *testing.T) {
	for frame, id := range map[string]string{u04: "3301210003", u09: "6221107674"} {
		res, err := New().Decode(&protocols.Conn{}, []byte(frame))
		if err != nil || res.UniqueID != id || res.Unsupported == "" || res.Ack != nil || res.Reply != nil || len(res.Positions) != 0 {
			t.Errorf("%s: %+v, %v", frame, res, err)
		}
	}
}

// TestDecodeMoreLayouts: the other record layouts, from Traccar's tests.
func TestDecodeMoreLayouts(t *testing.T) {
	tests := []struct {
		name, frame string
		want        prototest.Result
	}{
		{"short type 1", short1Frame, prototest.Result{UniqueID: "3110216001", Positions: []prototest.Position{{
			Time: at("2011-02-16 05:59:10"), Valid: true, Lat: 22 + 32.9862/60, Lon: -(114 + 4.6227/60), Speed: 5, Course: 304, Altitude: 291,
			Network: cell(10133, 5173, 22), Attributes: model.Attributes{"sat": 9, "power": 80}}}}},
		{"short type 3", short3Frame, prototest.Result{UniqueID: "6570607301", Positions: []prototest.Position{{
			Time: at("2017-11-13 10:36:19"), Valid: true, Lat: 6 + 53.8525/60, Lon: 79 + 52.4797/60,
			Attributes: model.Attributes{"fuel1": 0, "fuel2": 0, "fuel3": 0, "odometer": int64(3000), "ignition": true, "status": 0xF30003}}}}},
		{"long, protocol 0x19", long19Frame, prototest.Result{UniqueID: "8041300978", Ack: "(P69,0,110)", Positions: []prototest.Position{{
			Time: at("2021-10-06 07:54:43"), Valid: true, Lat: 54 + 19.3631/60, Lon: -(6 + 21.3423/60), Network: cell(63774, 41063, 29),
			Attributes: model.Attributes{"odometer": int64(108000), "sat": 7, "blocked": true, "status": 0x20E0, "batteryLevel": 100}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := New().Decode(&protocols.Conn{}, prototest.Unhex(t, tt.frame))
			if err != nil {
				t.Fatal(err)
			}
			check.Result(t, res, tt.want)
		})
	}
	res, err := New().Decode(&protocols.Conn{}, []byte(lockWithCard))
	if err != nil || len(res.Positions) != 1 || res.Positions[0].Attributes["driverUniqueId"] != "0012260888" || string(res.Ack) != "(P69,0,0)" {
		t.Errorf("P45 with a card: %+v, %v", res, err)
	}
}

// TestLongStatusAlarms sets each alarm bit of a long record's status.
func TestLongStatusAlarms(t *testing.T) {
	for bit, alarm := range map[int]string{1: "geofenceEnter", 2: "geofenceExit", 3: "powerCut", 4: "vibration", 11: "lowBattery", 14: "fault"} {
		frame := prototest.Unhex(t, longFrame)
		status := uint16(1) << bit
		frame[10+17+9], frame[10+17+10] = byte(status>>8), byte(status)
		res, err := New().Decode(&protocols.Conn{}, frame)
		if err != nil || len(res.Positions) != 1 || res.Positions[0].Attributes["alarm"] != alarm || res.Ack != nil {
			t.Errorf("bit %d: %+v, %v; want alarm %s and no answer", bit, res, err, alarm)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	prototest.DecodeRejects(t, New().Decode, nil,
		"",
		"(3301210003)",
		"(ABC,W01,11404.6204,E,2232.9961,N,A,040511,063736,4,7,100,4,17,1,1)",
		"(3110312099,W01,11404.6204,X,2232.9961,N,A,040511,063736,4,7,100,4,17,1,1)",
		"(3110312099,W01,11404.6204,E,2232.9961,N,A,320511,063736,4,7,100,4,17,1,1)",
		"(3301210003,U02,040812,185302,T,22.564025,N,113.242329,E,5,152,9,32,00000000000011,10133,5173,22,100,1)",
		"(3301210003,U02,040812,185302,T,NaN,N,113.242329,E,5,152,9,32%,00000000000011,10133,5173,22,100,1)",
		"(3301210003,U02,040812,185302,T,22.5,N,113.2,E,5,152,9,32%,00000000000012,10133,5173,22,100,1)",
		"(3301210003,ZC17,1)",
		"(8000632862,P45,290322,132412,25.28217,S,57.54683,W,A,0,0,5,0,0000000000,0,0,x,0)",
		"(1,2,3,WLNET,5,2,\x01)",
		"(1=\x16)",
		string(prototest.Unhex(t, shortFrame[:len(shortFrame)-2])),
		string(prototest.Unhex(t, "24ff4090196121001b19071703493631277203074235752f295800005308010000768b0822")),
		string(prototest.Unhex(t, "24624090196141001b19071703493631277203074235752f295800005308010000768b0822")),
		string(prototest.Unhex(t, "24624090196121001b19131703493631277203074235752f295800005308010000768b0822")),
	)
}

func BenchmarkDecode(b *testing.B) {
	prototest.BenchDecode(b, New().Decode, prototest.Unhex(b, longFrame))
}
