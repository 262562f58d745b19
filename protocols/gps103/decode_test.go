package gps103

import (
	"errors"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/protocols"
)

var fixedNow = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

func newTestProtocol() *Protocol {
	p := New()
	p.now = func() time.Time { return fixedNow }
	return p
}

func TestDecodeControlFrames(t *testing.T) {
	tests := []struct {
		name, frame, id, reply string
	}{
		{"logon", "##,imei:359586015829802,A;", "359586015829802", "LOAD"},
		{"logon without delimiter", "##,imei:359586015829802,A", "359586015829802", "LOAD"},
		{"heartbeat", "359586015829802;", "359586015829802", "ON"},
		{"heartbeat newline", "359586015829802\r\n", "359586015829802", "ON"},
		{"heartbeat not an id", "35958601x;", "", "ON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := newTestProtocol().Decode(&protocols.Conn{}, []byte(tt.frame))
			if err != nil {
				t.Fatal(err)
			}
			if res.UniqueID != tt.id || string(res.Reply) != tt.reply || len(res.Positions) != 0 || res.Ack != nil {
				t.Fatalf("got id %q reply %q ack %q positions %d", res.UniqueID, res.Reply, res.Ack, len(res.Positions))
			}
		})
	}
}

type want struct {
	time     time.Time
	valid    bool
	outdated bool
	lat, lon float64
	speed    float64
	course   float64
	altitude float64
	attrs    app.Attributes
	network  any
	ack      string
	reply    string
}

func TestDecodePositions(t *testing.T) {
	tests := []struct {
		name, frame, id string
		want            want
	}{
		{
			name:  "tracker, UTC field corrects local time",
			frame: "imei:359710045559474,tracker,151030080103,,F,000101.000,A,5443.3834,N,02512.9071,E,0.00,0;",
			id:    "359710045559474",
			want: want{time: time.Date(2015, 10, 30, 0, 1, 1, 0, time.UTC), valid: true, lat: 54.72306, lon: 25.21512,
				attrs: app.Attributes{}},
		},
		{
			name:  "sensor alarm without fix",
			frame: "imei:865456055519122,sensor alarm,2208011920,,L,;",
			id:    "865456055519122",
			want: want{time: fixedNow, outdated: true,
				attrs: app.Attributes{"alarm": "vibration"}},
		},
		{
			name:  "help me with cell, acked",
			frame: "imei:359710049075097,help me,,,L,,,113b,,558f,,,,,0,0,,,",
			id:    "359710049075097",
			want: want{time: fixedNow, outdated: true,
				attrs:   app.Attributes{"alarm": "sos"},
				network: cellNetwork(0x113b, 0x558f),
				ack:     "**,imei:359710049075097,E;"},
		},
		{
			name:  "extended tail, west longitude, signed temperature",
			frame: "imei:868683026321020,tracker,181217080106,,F,080102.000,A,3227.3057,N,11649.4754,W,0.00,0,,0,0,0.00%,0,+11;",
			id:    "868683026321020",
			want: want{time: time.Date(2018, 12, 17, 8, 1, 2, 0, time.UTC), valid: true, lat: 32.455095, lon: -116.82459167,
				attrs: app.Attributes{"ignition": false, "door": false, "fuel1": 0.0, "temp1": int64(11)}},
		},
		{
			name:  "event code, fuel, offset across midnight",
			frame: "imei:353451044508750,001,0809231929,13554900601,F,055403.000,A,2233.1870,N,11354.3067,E,0.00,30.1,65.43,1,0,10.5%,0.0%,28;",
			id:    "353451044508750",
			want: want{time: time.Date(2008, 9, 24, 5, 54, 3, 0, time.UTC), valid: true, lat: 22.553117, lon: 113.905112,
				course: 30.1, altitude: 65.43,
				attrs: app.Attributes{"event": "001", "ignition": true, "door": false,
					"fuel1": 10.5, "fuel2": 0.0, "temp1": int64(28)}},
		},
		{
			name:  "acc on sets ignition, south, invalid fix, speed in knots",
			frame: "imei:359710045559474,acc on,151030080103,,F,000101.000,V,5443.3834,S,02512.9071,E,12.5,270.5;",
			id:    "359710045559474",
			want: want{time: time.Date(2015, 10, 30, 0, 1, 1, 0, time.UTC), lat: -54.72306, lon: 25.21512, speed: 12.5, course: 270.5,
				attrs: app.Attributes{"ignition": true}},
		},
		{
			name:  "local behind UTC, previous day",
			frame: "imei:359710045559474,ac alarm,1510300001,,F,230045.000,A,5443.3834,N,02512.9071,E,0,0;",
			id:    "359710045559474",
			want: want{time: time.Date(2015, 10, 29, 23, 0, 45, 0, time.UTC), valid: true, lat: 54.72306, lon: 25.21512,
				attrs: app.Attributes{"alarm": "powerCut"}},
		},
		{
			name:  "temperature alarm carries the value",
			frame: "imei:359710045559474,T:-12.5,151030080103,,F,080101.000,A,5443.3834,N,02512.9071,E,0,0;",
			id:    "359710045559474",
			want: want{time: time.Date(2015, 10, 30, 8, 1, 1, 0, time.UTC), valid: true, lat: 54.72306, lon: 25.21512,
				attrs: app.Attributes{"alarm": "temperature", "temp1": -12.5}},
		},
		{
			name:  "rfid keyword names the driver",
			frame: "imei:359710045559474,rfid,151030080103,0012345678,F,080101.000,A,5443.3834,N,02512.9071,E,0,0;",
			id:    "359710045559474",
			want: want{time: time.Date(2015, 10, 30, 8, 1, 1, 0, time.UTC), valid: true, lat: 54.72306, lon: 25.21512,
				attrs: app.Attributes{"event": "rfid", "driverUniqueId": "0012345678"}},
		},
		{
			name:  "heartbeat prefix before imei frame",
			frame: "359710045559474imei:359710045559474,move,151030080103,,F,080101.000,A,5443.3834,N,02512.9071,E,0,0;",
			id:    "359710045559474",
			want: want{time: time.Date(2015, 10, 30, 8, 1, 1, 0, time.UTC), valid: true, lat: 54.72306, lon: 25.21512,
				attrs: app.Attributes{"alarm": "movement"}, reply: "ON"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := newTestProtocol().Decode(&protocols.Conn{}, []byte(tt.frame))
			if err != nil {
				t.Fatal(err)
			}
			if res.UniqueID != tt.id || string(res.Ack) != tt.want.ack || string(res.Reply) != tt.want.reply {
				t.Fatalf("id %q ack %q reply %q", res.UniqueID, res.Ack, res.Reply)
			}
			if len(res.Positions) != 1 {
				t.Fatalf("got %d positions", len(res.Positions))
			}
			checkPosition(t, res.Positions[0], tt.want)
		})
	}
}

func checkPosition(t *testing.T, p *app.Position, w want) {
	t.Helper()
	if p.Protocol != "gps103" || !p.FixTime.Equal(w.time) || !p.DeviceTime.Equal(w.time) {
		t.Errorf("protocol %q fix %v device %v, want %v", p.Protocol, p.FixTime, p.DeviceTime, w.time)
	}
	if p.Valid != w.valid || p.Outdated != w.outdated {
		t.Errorf("valid %v outdated %v", p.Valid, p.Outdated)
	}
	if math.Abs(p.Latitude-w.lat) > 1e-5 || math.Abs(p.Longitude-w.lon) > 1e-5 {
		t.Errorf("lat/lon %v %v, want %v %v", p.Latitude, p.Longitude, w.lat, w.lon)
	}
	if p.Speed != w.speed || p.Course != w.course || p.Altitude != w.altitude {
		t.Errorf("speed %v course %v altitude %v", p.Speed, p.Course, p.Altitude)
	}
	if len(p.Attributes) != len(w.attrs) {
		t.Errorf("attributes %v, want %v", p.Attributes, w.attrs)
	}
	for k, v := range w.attrs {
		if p.Attributes[k] != v {
			t.Errorf("attribute %s = %#v, want %#v", k, p.Attributes[k], v)
		}
	}
	if !reflect.DeepEqual(p.Network, w.network) {
		t.Errorf("network %#v, want %#v", p.Network, w.network)
	}
}

func TestDecodeRejects(t *testing.T) {
	for _, frame := range []string{
		"",
		"hello;",
		"imei:,tracker;",
		"imei:12x,tracker;",
		"imei:359710045559474;",
		"imei:359710045559474,OBD,151030080103,,,,,0,0%,,0%,0,12.0,;",
		"imei:359710045559474,tracker,151030080103,,F,000101.000,A,5443.3834,N;",
		"imei:359710045559474,tracker,151030080103,,F,000101.000,A,5463.3834,N,02512.9071,E,0,0;",
		"imei:359710045559474,tracker,151030080103,,F,000101.000,A,9143.3834,N,02512.9071,E,0,0;",
		"imei:359710045559474,tracker,151030080103,,F,000101.000,A,5443.3834,X,02512.9071,E,0,0;",
		"imei:359710045559474,tracker,151330080103,,F,000101.000,A,5443.3834,N,02512.9071,E,0,0;",
		"imei:359710045559474,tracker,151030250103,,F,000101.000,A,5443.3834,N,02512.9071,E,0,0;",
		"imei:359710045559474,tracker,151030080103,,F,000161.000,A,5443.3834,N,02512.9071,E,0,0;",
		"imei:359710045559474,tracker,151030080103,,F,000101.000,A,5443.3834,N,02512.9071,E,NaN,0;",
		"imei:359710045559474,tracker,151030080103,,F,000101.000,A,5443.3834,N,02512.9071,E,1e5,0;",
		"imei:359710045559474,T:hot,151030080103,,L,;",
		"imei:359710045559474,tracker,1,1,1,1,1,1,1,1,1,1,1*",
	} {
		if _, err := newTestProtocol().Decode(&protocols.Conn{}, []byte(frame)); !errors.Is(err, app.ErrInvalid) {
			t.Errorf("%q: err %v, want invalid", frame, err)
		}
	}
}
