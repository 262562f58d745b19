package castel

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

var check = prototest.Checker{Protocol: Name, SpeedTolerance: 1e-9}

// testProtocol answers logins with prototest.Now: 2024-05-06 07:08:09 UTC.
func testProtocol() *Protocol { return &Protocol{now: prototest.Clock} }

func u(t *testing.T, s string) string { return string(prototest.Unhex(t, s)) }

func at(y int, mo time.Month, d, h, mi, s int) time.Time {
	return time.Date(y, mo, d, h, mi, s, 0, time.UTC)
}

func cell(lac, cid int) map[string]any {
	return map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": []map[string]any{{
		"mobileCountryCode": 0, "mobileNetworkCode": 0, "locationAreaCode": lac, "cellId": int64(cid)}}}
}

// sharedWant are the expected results of sharedFrames, in order. Values
// read from the layout by hand for a sample of them: frame 16's fix is
// 06-06-15 16:11:45, latitude 0x07A7785A / 3,600,000 = 35.671065, course
// 0x068C / 10, flags 0x5F (5 satellites, north, east, fixed); frame 13 has
// no fix and one new alarm, type 0x17 (ignition off).
func sharedWant(t *testing.T) []prototest.Result {
	return []prototest.Result{
		{UniqueID: "218L1EC2025000001", Positions: []prototest.Position{{Time: at(2025, 12, 11, 21, 54, 23), Outdated: true,
			Attributes: model.Attributes{"coolantTemp": int64(90), "fuel": int64(41), "fuelConsumption": int64(227355),
				"ignition": true, "intakeTemp": int64(28), "mapIntake": int64(23), "obdSpeed": int64(9),
				"odometer": int64(21439300), "rpm": int64(772), "status": int64(262656), "tripOdometer": int64(22800)}}}},
		{UniqueID: "T-234L-TEST123456", Positions: []prototest.Position{{Time: at(2024, 9, 30, 8, 12, 40), Lat: 22.54785, Lon: 113.93114,
			Attributes: model.Attributes{"battery": 3.86, "deviceTemp": 25.5, "fuelConsumption": int64(0), "odometer": int64(32235),
				"sat": 0, "status": int64(262656), "tripOdometer": int64(0)}}}},
		{UniqueID: "213L2017000422", Positions: []prototest.Position{{Time: at(2018, 6, 13, 5, 38, 57), Outdated: true,
			Attributes: model.Attributes{"dtcs": "P1351", "fuelConsumption": int64(5712), "ignition": true,
				"odometer": int64(1003848), "status": int64(262656), "tripOdometer": int64(0)}}}},
		{UniqueID: "213GDP2018021343", CommandResult: "MALC381CMKM567148"},
		{UniqueID: "213WP2018001824", Positions: []prototest.Position{{Time: at(2019, 5, 13, 12, 39, 31), Outdated: true,
			Attributes: model.Attributes{"fuelConsumption": int64(1600), "ignition": true, "odometer": int64(77727),
				"status": int64(262144), "tripOdometer": int64(709)}}}},
		{UniqueID: "61711512C3136", Ack: u(t, "40401f00ff36313731313531324333313336000000000000004001f7b10d0a"),
			Positions: []prototest.Position{{Time: at(2018, 1, 27, 7, 19, 58), Valid: true, Lat: 19.69001, Lon: -99.22001,
				Attributes: model.Attributes{"sat": 8}}}},
		{UniqueID: "213NX2016001177", Positions: []prototest.Position{{Time: at(2016, 9, 6, 5, 25, 31), Outdated: true,
			Attributes: model.Attributes{"fuelConsumption": int64(3077), "ignition": true, "odometer": int64(184778),
				"status": int64(262144), "tripOdometer": int64(577)}}}},
		{UniqueID: "gnghef6101112900174", Ack: u(t, "40402a00676e676865663631303131313239303031373400100100000000ffffffffffffffffc2cf0d0a"),
			Positions: []prototest.Position{{Time: at(2016, 2, 6, 11, 54, 41), Valid: true, Lat: 45.71751166666667, Lon: 12.468575,
				Course: 322.5, Attributes: model.Attributes{"sat": 7}}}},
		{UniqueID: "1001112529987", Positions: []prototest.Position{{Time: at(2013, 10, 25, 5, 57, 25), Valid: true,
			Lat: 22.54621, Lon: 113.93746, Attributes: model.Attributes{"fuelConsumption": int64(35087),
				"odometer": int64(1151388), "sat": 11, "status": int64(0), "tripOdometer": int64(0)}}}},
		{UniqueID: "611150000956", Ack: u(t, "40401f000c3631313135303030303935360000000000000000820656110d0a"),
			Positions: []prototest.Position{{Time: at(2015, 10, 30, 11, 19, 18), Valid: true, Lat: 41.020268333333334,
				Lon: 14.335626666666666, Speed: cpsToKnots, Course: 266, Network: cell(41083, 42627),
				Attributes: model.Attributes{"battery": 10, "odometer": int64(0), "sat": 12, "status": int64(262144)}}}},
		{UniqueID: "611150000956", Ack: u(t, "40401f000c3631313135303030303935360000000000000000800159560d0a"),
			Positions: []prototest.Position{{Time: at(2015, 10, 28, 14, 54, 45), Lat: 41.02057166666667, Lon: 14.33624,
				Attributes: model.Attributes{"battery": 255, "odometer": int64(0), "sat": 0, "status": int64(0)}}}},
		{UniqueID: "212GL1143005003", Positions: []prototest.Position{{Time: at(2015, 7, 7, 10, 27, 50), Outdated: true,
			Network: cell(21493, 54843), Attributes: model.Attributes{"fuelConsumption": int64(708), "ignition": true,
				"odometer": int64(22364), "status": int64(1310720), "tripOdometer": int64(0)}}}},
		{UniqueID: "212GL1143005003", Ack: u(t, "4040230004323132474c313134333030353030330000000000c0071200000050eb0d0a"),
			Positions: []prototest.Position{{Time: at(2015, 7, 7, 10, 28, 27), Outdated: true,
				Attributes: model.Attributes{"fuelConsumption": int64(708), "ignition": false, "odometer": int64(22364),
					"status": int64(0), "tripOdometer": int64(0)}}}},
		{UniqueID: "212GL1143005003", Reply: u(t, "4040290004323132474c3131343330303530303300000000009001ffffffff0000d9813866ff5c0d0a")},
		{UniqueID: "1001112529987", Reply: u(t, "40401f000431303031313132353239393837000000000000009003cfbe0d0a")},
		{UniqueID: "354043050844143", Positions: []prototest.Position{{Time: at(2015, 6, 6, 16, 11, 45), Valid: true,
			Lat: 35.671065, Lon: 139.732795, Course: 167.6, Attributes: model.Attributes{"fuelConsumption": int64(0),
				"odometer": int64(113), "sat": 5, "status": int64(262144), "tripOdometer": int64(11)}}}},
	}
}

// checkResult compares a result; an outdated position has only a device
// time (the stat block's), which want.Time gives.
func checkResult(t *testing.T, res protocols.Result, want prototest.Result) {
	t.Helper()
	for i, p := range res.Positions {
		if p.Outdated && i < len(want.Positions) {
			if !p.FixTime.IsZero() || !p.DeviceTime.Equal(want.Positions[i].Time) {
				t.Errorf("outdated position: fix %v device %v, want none and %v", p.FixTime, p.DeviceTime, want.Positions[i].Time)
			}
			p.FixTime = p.DeviceTime
		}
	}
	check.Result(t, res, want)
}

func TestSharedFrames(t *testing.T) {
	for i, want := range sharedWant(t) {
		res, err := testProtocol().Decode(&protocols.Conn{}, prototest.Unhex(t, sharedFrames[i]))
		if err != nil {
			t.Fatalf("frame %d: %v", i+1, err)
		}
		checkResult(t, res, want)
	}
}

// TestDatagrams decodes the same frames as UDP packets: the same results.
func TestDatagrams(t *testing.T) {
	for i, want := range sharedWant(t) {
		res, err := testProtocol().DecodeDatagram(&protocols.Conn{}, prototest.Unhex(t, sharedFrames[i]))
		if err != nil {
			t.Fatalf("frame %d: %v", i+1, err)
		}
		checkResult(t, res, want)
	}
}

func TestMoreFrames(t *testing.T) {
	tests := []struct {
		name  string
		frame string
		want  prototest.Result
	}{
		{"alarm with a fix: power on, ignition on", alarmWithFix, prototest.Result{UniqueID: "213GDS2021000052",
			Ack: u(t, "40402300043231334744533230323130303030353200000000c0070100000090b70d0a"),
			Positions: []prototest.Position{{Time: at(2024, 11, 15, 6, 27, 19), Lat: 22.54779, Lon: 113.93124,
				Attributes: model.Attributes{"alarm": "powerOn", "ignition": true, "fuelConsumption": int64(0),
					"odometer": int64(0), "sat": 0, "status": int64(262656), "tripOdometer": int64(0)}}}}},
		{"commercial DTCs", dtcCommercial, prototest.Result{UniqueID: "213W201900354",
			Positions: []prototest.Position{{Time: at(2019, 7, 26, 3, 26, 39), Outdated: true,
				Attributes: model.Attributes{"dtcs": "P0326", "fuelConsumption": int64(0), "ignition": false,
					"odometer": int64(0), "status": int64(0), "tripOdometer": int64(0)}}}}},
		{"GPS while asleep", sleepTwice[:len(sleepTwice)/2], prototest.Result{UniqueID: "213NX2016000346",
			Positions: []prototest.Position{{Time: at(2016, 8, 5, 6, 26, 53), Valid: true, Lat: 51.129151666666665,
				Lon: -114.248455, Speed: 3 * cpsToKnots, Course: 286.6, Attributes: model.Attributes{"sat": 11}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := testProtocol().Decode(&protocols.Conn{}, prototest.Unhex(t, tt.frame))
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, res, tt.want)
		})
	}
}

func TestUnsupportedChecksumTruncated(t *testing.T) {
	p := testProtocol()
	res, err := p.Decode(&protocols.Conn{}, prototest.Unhex(t, loginReplyCap))
	if err != nil || res.Unsupported != "SC message type 0x9001 not decoded" || res.Reply != nil || res.UniqueID != "213EP2016000585" {
		t.Errorf("a server's login answer from a device: %+v, %v", res, err)
	}
	bad := prototest.Unhex(t, sharedFrames[15])
	bad[len(bad)-3] ^= 1
	res, err = p.Decode(&protocols.Conn{}, bad)
	if err != nil || !res.ChecksumError || len(res.Positions) != 1 {
		t.Errorf("bad CRC: %+v, %v; want the position flagged", res, err)
	}
	// A GPS frame whose position count runs past the body.
	short := prototest.Unhex(t, sharedFrames[15])
	cut := append(append([]byte{}, short[:60]...), 0, 0, '\r', '\n')
	if _, err := p.Decode(&protocols.Conn{}, cut); err != errTruncated {
		t.Errorf("truncated: %v", err)
	}
	prototest.DecodeRejects(t, p.Decode, nil, "@@\x05\x00", "##"+string(short[2:]))
}
