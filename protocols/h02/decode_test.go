package h02

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// now is the fixed server clock of the tests.
var now = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

func testProtocol() *Protocol { return &Protocol{now: func() time.Time { return now }} }

// fix is the expected location of a position; nil for outdated positions.
type fix struct {
	time          string // UTC, "2006-01-02 15:04:05"
	valid         bool
	lat, lon      float64
	speed, course float64
}

type decodeCase struct {
	name    string
	frame   []byte
	id      string
	fix     *fix             // nil: no location expected
	at      string           // device time of an outdated position, if set
	noPos   bool             // no position at all
	attrs   model.Attributes // exact values of these attributes
	reply   string           // written at once
	ack     string           // written once the positions are stored
	result  string
	network map[string]any // exact network when set
	absent  []string       // attributes that must not be set
	// unsupported is the expected Result.Unsupported reason (then no
	// position, reply or ack).
	unsupported string
}

func checkFix(t *testing.T, pos *model.Position, want *fix) {
	t.Helper()
	wantTime, err := time.Parse(time.DateTime, want.time)
	if err != nil {
		t.Fatal(err)
	}
	if !pos.FixTime.Equal(wantTime) || !pos.DeviceTime.Equal(wantTime) {
		t.Errorf("time = %v / %v, want %v", pos.FixTime, pos.DeviceTime, wantTime)
	}
	if pos.Outdated || pos.Valid != want.valid {
		t.Errorf("outdated %v valid %v, want valid %v", pos.Outdated, pos.Valid, want.valid)
	}
	if math.Abs(pos.Latitude-want.lat) > 1e-5 || math.Abs(pos.Longitude-want.lon) > 1e-5 {
		t.Errorf("location = %.6f,%.6f, want %.5f,%.5f", pos.Latitude, pos.Longitude, want.lat, want.lon)
	}
	if pos.Speed != want.speed || pos.Course != want.course {
		t.Errorf("speed/course = %v/%v, want %v/%v", pos.Speed, pos.Course, want.speed, want.course)
	}
}

func runDecodeCases(t *testing.T, cases []decodeCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := testProtocol().Decode(&protocols.Conn{}, tc.frame)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if res.UniqueID != tc.id {
				t.Errorf("UniqueID = %q, want %q", res.UniqueID, tc.id)
			}
			if string(res.Reply) != tc.reply || string(res.Ack) != tc.ack {
				t.Errorf("reply = %q ack = %q, want %q and %q", res.Reply, res.Ack, tc.reply, tc.ack)
			}
			if res.Unsupported != tc.unsupported || res.ChecksumError {
				t.Errorf("unsupported = %q checksum error %v, want %q", res.Unsupported, res.ChecksumError, tc.unsupported)
			}
			if res.CommandResult != tc.result {
				t.Errorf("CommandResult = %q, want %q", res.CommandResult, tc.result)
			}
			if tc.noPos || tc.unsupported != "" {
				if len(res.Positions) != 0 {
					t.Fatalf("got %d positions, want none", len(res.Positions))
				}
				return
			}
			if len(res.Positions) != 1 {
				t.Fatalf("got %d positions, want 1", len(res.Positions))
			}
			pos := res.Positions[0]
			if pos.Protocol != "h02" {
				t.Errorf("protocol = %q", pos.Protocol)
			}
			if tc.fix != nil {
				checkFix(t, pos, tc.fix)
			} else {
				if !pos.Outdated || pos.Valid || pos.Latitude != 0 || pos.Longitude != 0 {
					t.Errorf("outdated %v valid %v at %v,%v, want an outdated position",
						pos.Outdated, pos.Valid, pos.Latitude, pos.Longitude)
				}
				if tc.at != "" {
					want, err := time.Parse(time.DateTime, tc.at)
					if err != nil {
						t.Fatal(err)
					}
					if !pos.DeviceTime.Equal(want) || !pos.FixTime.Equal(want) {
						t.Errorf("time = %v / %v, want %v", pos.DeviceTime, pos.FixTime, want)
					}
				}
			}
			for k, v := range tc.attrs {
				if got, ok := pos.Attributes[k]; !ok || !reflect.DeepEqual(got, v) {
					t.Errorf("attribute %s = %#v, want %#v", k, got, v)
				}
			}
			for _, k := range tc.absent {
				if v, ok := pos.Attributes[k]; ok {
					t.Errorf("attribute %s = %#v, want none", k, v)
				}
			}
			if tc.network != nil && !reflect.DeepEqual(pos.Network, tc.network) {
				t.Errorf("network = %#v\nwant %#v", pos.Network, tc.network)
			}
		})
	}
}

func intp(v int) *int { return &v }

// TestDecodeSamples covers every H02 frame of samples.md.
func TestDecodeSamples(t *testing.T) {
	runDecodeCases(t, []decodeCase{{
		name:  "V1 with status and cell values",
		frame: []byte("*HQ,4210051415,V1,164549,A,0956.3869,N,08406.7068,W,000.00,000,221215,FFFFFBFF,712,01,0,0,6#"),
		id:    "4210051415",
		fix:   &fix{time: "2015-12-22 16:45:49", valid: true, lat: 9.93978, lon: -84.11178},
		attrs: model.Attributes{"status": int64(0xFFFFFBFF), "ignition": false,
			"io1": "712", "io2": "01", "io3": "0", "io4": "0", "io5": "6"},
		ack: "*HQ,4210051415,V4,V1,20240102030405#",
	}, {
		name:  "V1 with -dd-mm.mmmm coordinates",
		frame: []byte("*HQ,1451316409,V1,030149,A,-23-29.0095,S,-46-51.5852,W,2.4,065,070315,FFFFFFFF#"),
		id:    "1451316409",
		fix:   &fix{time: "2015-03-07 03:01:49", valid: true, lat: -23.48349, lon: -46.85975, speed: 2.4, course: 65},
		attrs: model.Attributes{"status": int64(0xFFFFFFFF), "ignition": true},
		ack:   "*HQ,1451316409,V4,V1,20240102030405#",
	}, {
		name:  "V1 status word",
		frame: []byte("*HQ,2705171109,V1,213324,A,5002.5849,N,01433.7822,E,0.00,000,140613,FFFFFFFF#"),
		id:    "2705171109",
		fix:   &fix{time: "2013-06-14 21:33:24", valid: true, lat: 50.043082, lon: 14.563037},
		attrs: model.Attributes{"status": int64(0xFFFFFFFF)},
		ack:   "*HQ,2705171109,V4,V1,20240102030405#",
	}, {
		name:  "binary 45 bytes",
		frame: prototest.Unhex(t, "24410600082621532131081504419390060740418306000000fffffbfdff0015060000002c02dc0c000000001f"),
		id:    "4106000826",
		fix:   &fix{time: "2015-08-31 21:53:21", valid: true, lat: 4.69898, lon: -74.06971},
		attrs: model.Attributes{"batteryLevel": 100, "status": int64(0xFFFFFBFD), "alarm": "sos", "ignition": false},
	}, {
		name:  "binary 32 bytes",
		frame: prototest.Unhex(t, "2441060116601245431311165035313006004318210e000000fffffbffff0024"),
		id:    "4106011660",
		fix:   &fix{time: "2016-11-13 12:45:43", valid: true, lat: 50.58855, lon: 4.53035},
		attrs: model.Attributes{"batteryLevel": 100, "status": int64(0xFFFFFBFF)},
	}, {
		name:  "heartbeat with battery",
		frame: []byte("*HQ,135790246811220,HTBT,100#"),
		id:    "135790246811220",
		at:    "2024-01-02 03:04:05",
		attrs: model.Attributes{"batteryLevel": 100},
		ack:   "*HQ,135790246811220,HTBT#",
	}, {
		name:  "heartbeat without battery",
		frame: []byte("*HQ,135790246811220,HTBT#"),
		id:    "135790246811220",
		noPos: true,
		reply: "*HQ,135790246811220,HTBT#",
	}, {
		name:  "NBR cell towers",
		frame: []byte("*HQ,4109179024,NBR,103732,722,310,0,6,8106,32010,23,8101,22007,25,8106,12010,23,8106,22105,22,8101,22012,16,8106,42010,5,100217,FFFFFBFF,5#"),
		id:    "4109179024",
		attrs: model.Attributes{"status": int64(0xFFFFFBFF), "ignition": false},
		ack:   "*HQ,4109179024,V4,NBR,20240102030405#",
		network: network([]map[string]any{
			cell(722, 310, 8106, 32010, intp(23)), cell(722, 310, 8101, 22007, intp(25)),
			cell(722, 310, 8106, 12010, intp(23)), cell(722, 310, 8106, 22105, intp(22)),
			cell(722, 310, 8101, 22012, intp(16)), cell(722, 310, 8106, 42010, intp(5)),
		}),
	}, {
		name:  "V1 without a fix keeps its status",
		frame: []byte("*HQ,353505510948929,V1,,V,,N,,E,0.00,0,,FFFFF7FF,f0,a,11a0,c0c6#"),
		id:    "353505510948929",
		at:    "2024-01-02 03:04:05",
		attrs: model.Attributes{"status": int64(0xFFFFF7FF), "ignition": true,
			"io1": "f0", "io2": "a", "io3": "11a0", "io4": "c0c6"},
		absent: []string{"alarm"},
		ack:    "*HQ,353505510948929,V4,V1,20240102030405#",
	}})
}

func TestDecodeNBRTime(t *testing.T) {
	res, err := testProtocol().Decode(nil, []byte("*HQ,4109179024,NBR,103732,722,310,0,1,8106,32010,23,100217,FFFFFBFF,5#"))
	if err != nil || len(res.Positions) != 1 {
		t.Fatalf("Decode = %+v, %v", res, err)
	}
	want := time.Date(2017, 2, 10, 10, 37, 32, 0, time.UTC)
	if pos := res.Positions[0]; !pos.DeviceTime.Equal(want) {
		t.Errorf("device time = %v, want %v", pos.DeviceTime, want)
	}
}
