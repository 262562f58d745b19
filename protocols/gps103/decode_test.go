package gps103

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// check compares decoded results with expectations.
var check = prototest.Checker{Protocol: Name}

func newTestProtocol() *Protocol {
	p := New()
	p.now = prototest.Clock
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
			check.Decode(t, newTestProtocol().Decode, tt.frame, prototest.Result{UniqueID: tt.id, Reply: tt.reply})
		})
	}
}

func TestDecodePositions(t *testing.T) {
	tests := []struct {
		name, frame, id, ack, reply string
		want                        prototest.Position
	}{
		{
			name:  "tracker, UTC field corrects local time",
			frame: "imei:359710045559474,tracker,151030080103,,F,000101.000,A,5443.3834,N,02512.9071,E,0.00,0;",
			id:    "359710045559474",
			want: prototest.Position{Time: time.Date(2015, 10, 30, 0, 1, 1, 0, time.UTC), Valid: true, Lat: 54.72306, Lon: 25.21512,
				Attributes: model.Attributes{}},
		},
		{
			name:  "sensor alarm without fix",
			frame: "imei:865456055519122,sensor alarm,2208011920,,L,;",
			id:    "865456055519122",
			want: prototest.Position{Time: prototest.Now, Outdated: true,
				Attributes: model.Attributes{"alarm": "vibration"}},
		},
		{
			name:  "help me with cell, acked",
			frame: "imei:359710049075097,help me,,,L,,,113b,,558f,,,,,0,0,,,",
			id:    "359710049075097",
			ack:   "**,imei:359710049075097,E;",
			want: prototest.Position{Time: prototest.Now, Outdated: true,
				Attributes: model.Attributes{"alarm": "sos"},
				Network:    cellNetwork(0x113b, 0x558f)},
		},
		{
			name:  "extended tail, west longitude, signed temperature",
			frame: "imei:868683026321020,tracker,181217080106,,F,080102.000,A,3227.3057,N,11649.4754,W,0.00,0,,0,0,0.00%,0,+11;",
			id:    "868683026321020",
			want: prototest.Position{Time: time.Date(2018, 12, 17, 8, 1, 2, 0, time.UTC), Valid: true, Lat: 32.455095, Lon: -116.82459167,
				Attributes: model.Attributes{"ignition": false, "door": false, "fuel1": 0.0, "temp1": int64(11)}},
		},
		{
			name:  "event code, fuel, offset across midnight",
			frame: "imei:353451044508750,001,0809231929,13554900601,F,055403.000,A,2233.1870,N,11354.3067,E,0.00,30.1,65.43,1,0,10.5%,0.0%,28;",
			id:    "353451044508750",
			want: prototest.Position{Time: time.Date(2008, 9, 24, 5, 54, 3, 0, time.UTC), Valid: true, Lat: 22.553117, Lon: 113.905112,
				Course: 30.1, Altitude: 65.43,
				Attributes: model.Attributes{"event": "001", "ignition": true, "door": false,
					"fuel1": 10.5, "fuel2": 0.0, "temp1": int64(28)}},
		},
		{
			name:  "acc on sets ignition, south, invalid fix, speed in knots",
			frame: "imei:359710045559474,acc on,151030080103,,F,000101.000,V,5443.3834,S,02512.9071,E,12.5,270.5;",
			id:    "359710045559474",
			want: prototest.Position{Time: time.Date(2015, 10, 30, 0, 1, 1, 0, time.UTC), Lat: -54.72306, Lon: 25.21512, Speed: 12.5, Course: 270.5,
				Attributes: model.Attributes{"ignition": true}},
		},
		{
			name:  "local behind UTC, previous day",
			frame: "imei:359710045559474,ac alarm,1510300001,,F,230045.000,A,5443.3834,N,02512.9071,E,0,0;",
			id:    "359710045559474",
			want: prototest.Position{Time: time.Date(2015, 10, 29, 23, 0, 45, 0, time.UTC), Valid: true, Lat: 54.72306, Lon: 25.21512,
				Attributes: model.Attributes{"alarm": "powerCut"}},
		},
		{
			name:  "temperature alarm carries the value",
			frame: "imei:359710045559474,T:-12.5,151030080103,,F,080101.000,A,5443.3834,N,02512.9071,E,0,0;",
			id:    "359710045559474",
			want: prototest.Position{Time: time.Date(2015, 10, 30, 8, 1, 1, 0, time.UTC), Valid: true, Lat: 54.72306, Lon: 25.21512,
				Attributes: model.Attributes{"alarm": "temperature", "temp1": -12.5}},
		},
		{
			name:  "rfid keyword names the driver",
			frame: "imei:359710045559474,rfid,151030080103,0012345678,F,080101.000,A,5443.3834,N,02512.9071,E,0,0;",
			id:    "359710045559474",
			want: prototest.Position{Time: time.Date(2015, 10, 30, 8, 1, 1, 0, time.UTC), Valid: true, Lat: 54.72306, Lon: 25.21512,
				Attributes: model.Attributes{"event": "rfid", "driverUniqueId": "0012345678"}},
		},
		{
			name:  "heartbeat prefix before imei frame",
			frame: "359710045559474imei:359710045559474,move,151030080103,,F,080101.000,A,5443.3834,N,02512.9071,E,0,0;",
			id:    "359710045559474",
			reply: "ON",
			want: prototest.Position{Time: time.Date(2015, 10, 30, 8, 1, 1, 0, time.UTC), Valid: true, Lat: 54.72306, Lon: 25.21512,
				Attributes: model.Attributes{"alarm": "movement"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check.Decode(t, newTestProtocol().Decode, tt.frame, prototest.Result{UniqueID: tt.id, Ack: tt.ack, Reply: tt.reply,
				Positions: []prototest.Position{tt.want}})
		})
	}
}

func TestDecodeRejects(t *testing.T) {
	prototest.DecodeRejects(t, newTestProtocol().Decode, model.ErrInvalid,
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
	)
}
