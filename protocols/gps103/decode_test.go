package gps103

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// check compares decoded results with expectations.
var check = prototest.Checker{Protocol: Name}

func newTestProtocol() *Protocol {
	p := New()
	p.now = prototest.Clock
	return p
}

// framePhoto is a real "vr" photo packet (Traccar's test capture).
const framePhoto = "imei:864180034124375,vr,0c00fa011ea05a03d726977103ad0034c98ef49e6d303fffd1c8361303f2dbb0fa530d8ca3930be3e94f4110145c7029a507a0a00028f4a70514c05c500503170334b400531971cad002ab7634f001a4027949c8e541ea47f853bca2f961ba427ab1e290089197711c485e4f6e82ad0d1ee8f25573eed4af60284f6935bb7ef2307f1dc3f4355bbf3f90a607ffd2e5fcc6c60310be80f152dbca54ed53147fed3ae7fa1fe54809e45330fdedc993d073b7f2a6340a00d8cabeb9a4980c68900e5cb1f6e29aab9e00fc334012a5a5c32e5227c7b21a9a2d35dc02cdb49edb189fe545ec058fec7565e667cfa08b1fccd34686e4f12003dd7ffaf4b980957440bd595beb53269bb082a517dd570693604cb6299cb1663f5a9d608e3e42807d71cd002d206028011e50aa49381513494011349cd2092803ffd3d031f154ef11bc86d870781f8679a90302540adc545c55a00e28c8a602e47ad2e46680133cd19e6800cd1cf4a0063293ce695188e0d20265e58559305c3ffcb2948eca10d20278adb50518890c40f5ed9a5fece941ccb29cfd19ff00c2a6e860d6471c7da1cffb3b507eb9aaafa3dc4a4909b7fdf6c9fd28b88fffd4ca5d06e7b94152af87a53f7a7403d949a8e60265f0eaff0014ee7e8807f5a99340857abcadf881fd2973013a6936f1f48d4ffbc01fe95652dd63fba00fa521926d1de8e07a51600dc3d01d00;"

func TestDecodeControlFrames(t *testing.T) {
	tests := []struct {
		name, frame, id, reply string
	}{
		{"logon", "##,imei:359586015829802,A;", "359586015829802", "LOAD"},
		{"logon without delimiter", "##,imei:359586015829802,A", "359586015829802", "LOAD"},
		{"log-on of the '*' variant", "imei:123451234512345,L,*", "123451234512345", "LOAD"},
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
		name, frame, id, ack, reply, result string
		want                                prototest.Position
	}{
		{
			name:  "tracker, UTC field corrects local time",
			frame: "imei:359710045559474,tracker,151030080103,,F,000101.000,A,5443.3834,N,02512.9071,E,0.00,0;",
			id:    "359710045559474",
			want: prototest.Position{Time: time.Date(2015, 10, 30, 0, 1, 1, 0, time.UTC), Valid: true, Lat: 54.72306, Lon: 25.21512,
				Attributes: model.Attributes{}},
		},
		{
			name:  "sensor alarm without fix or cell",
			frame: "imei:865456055519122,sensor alarm,2208011920,,L,;",
			id:    "865456055519122",
			want: prototest.Position{Time: prototest.Now, Outdated: true,
				Attributes: model.Attributes{"alarm": "vibration"}},
		},
		{
			name:  "help me with cell and tail, acked",
			frame: "imei:359710049075097,help me,,,L,,,113b,,558f,,,,,0,0,,,",
			id:    "359710049075097",
			ack:   "**,imei:359710049075097,E;",
			want: prototest.Position{Time: prototest.Now, Outdated: true,
				Attributes: model.Attributes{"alarm": "sos", "ignition": false, "door": false},
				Network:    cellNetwork(0x113b, 0x558f)},
		},
		{
			name:  "fix source without coordinates is no fix",
			frame: "imei:359586015829802,help me,0809231429,13554900601,F,,V,,,,,,;",
			id:    "359586015829802",
			ack:   "**,imei:359586015829802,E;",
			want: prototest.Position{Time: prototest.Now, Outdated: true,
				Attributes: model.Attributes{"alarm": "sos"}},
		},
		{
			name:  "tracker with cell only, zero local stamp",
			frame: "imei:359710041100000,tracker,000000000,,L,,,fa8,,c9af,,,,,0,0,0.00%,,",
			id:    "359710041100000",
			want: prototest.Position{Time: prototest.Now, Outdated: true,
				Attributes: model.Attributes{"ignition": false, "door": false, "fuel1": 0.0},
				Network:    cellNetwork(0xfa8, 0xc9af)},
		},
		{
			name:  "ac alarm with cell only",
			frame: "imei:864895030279986,ac alarm,180404174252,,L,,,296a,,51f7,,,",
			id:    "864895030279986",
			want: prototest.Position{Time: prototest.Now, Outdated: true,
				Attributes: model.Attributes{"alarm": "powerCut"},
				Network:    cellNetwork(0x296a, 0x51f7)},
		},
		{
			name:  "extended tail, west longitude, signed temperature",
			frame: "imei:868683026321020,tracker,181217080106,,F,080102.000,A,3227.3057,N,11649.4754,W,0.00,0,,0,0,0.00%,0,+11;",
			id:    "868683026321020",
			want: prototest.Position{Time: time.Date(2018, 12, 17, 8, 1, 2, 0, time.UTC), Valid: true, Lat: 32.455095, Lon: -116.82459167,
				Attributes: model.Attributes{"ignition": false, "door": false, "fuel1": 0.0, "temp1": 11.0}},
		},
		{
			name:  "event code, fuel, offset across midnight",
			frame: "imei:353451044508750,001,0809231929,13554900601,F,055403.000,A,2233.1870,N,11354.3067,E,0.00,30.1,65.43,1,0,10.5%,0.0%,28;",
			id:    "353451044508750",
			want: prototest.Position{Time: time.Date(2008, 9, 24, 5, 54, 3, 0, time.UTC), Valid: true, Lat: 22.553117, Lon: 113.905112,
				Course: 30.1, Altitude: 65.43,
				Attributes: model.Attributes{"event": "001", "ignition": true, "door": false,
					"fuel1": 10.5, "fuel2": 0.0, "temp1": 28.0}},
		},
		{
			name:  "acc on sets ignition, south, invalid fix, speed in knots",
			frame: "imei:359710045559474,acc on,151030080103,,F,000101.000,V,5443.3834,S,02512.9071,E,12.5,270.5;",
			id:    "359710045559474",
			want: prototest.Position{Time: time.Date(2015, 10, 30, 0, 1, 1, 0, time.UTC), Lat: -54.72306, Lon: 25.21512, Speed: 12.5, Course: 270.5,
				Attributes: model.Attributes{"ignition": true}},
		},
		{
			name:  "acc off wins over the ACC field, decimal temperature",
			frame: "imei:865328023776874,acc off,150619152221,,F,072218.000,A,5439.8489,N,02518.5945,E,0.00,,,1,1,0.0,0.0,23.0,;",
			id:    "865328023776874",
			want: prototest.Position{Time: time.Date(2015, 6, 19, 7, 22, 18, 0, time.UTC), Valid: true, Lat: 54.66414833, Lon: 25.30990833,
				Attributes: model.Attributes{"ignition": false, "door": true, "temp1": 23.0}},
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
			name:  "temperature keyword wins over the tail's",
			frame: "imei:868683026321020,T:+11,181217080050,,F,080047.000,A,3227.3057,N,11649.4754,W,0.00,0,,0,0,0.00%,,+11;",
			id:    "868683026321020",
			want: prototest.Position{Time: time.Date(2018, 12, 17, 8, 0, 47, 0, time.UTC), Valid: true, Lat: 32.455095, Lon: -116.82459167,
				Attributes: model.Attributes{"alarm": "temperature", "temp1": 11.0, "ignition": false, "door": false, "fuel1": 0.0}},
		},
		{
			name:  "rfid keyword names the driver",
			frame: "imei:868683020235846,rfid,160202091347,49121185,F,011344.000,A,0447.7273,N,07538.9934,W,0.00,0,,0,0,0.00%,,",
			id:    "868683020235846",
			want: prototest.Position{Time: time.Date(2016, 2, 2, 1, 13, 44, 0, time.UTC), Valid: true, Lat: 4.795455, Lon: -75.64989,
				Attributes: model.Attributes{"event": "rfid", "driverUniqueId": "49121185", "ignition": false, "door": false, "fuel1": 0.0}},
		},
		{
			name:  "heartbeat prefix before imei frame",
			frame: "359710045559474imei:359710045559474,move,151030080103,,F,080101.000,A,5443.3834,N,02512.9071,E,0,0;",
			id:    "359710045559474",
			reply: "ON",
			want: prototest.Position{Time: time.Date(2015, 10, 30, 8, 1, 1, 0, time.UTC), Valid: true, Lat: 54.72306, Lon: 25.21512,
				Attributes: model.Attributes{"alarm": "movement"}},
		},
		{
			name:  "empty longitude hemisphere counts as east",
			frame: "imei:863070010423167,tracker,1211051840,,F,104000.000,A,2220.6483,N,11407.6377,,0,0,",
			id:    "863070010423167",
			want: prototest.Position{Time: time.Date(2012, 11, 5, 10, 40, 0, 0, time.UTC), Valid: true, Lat: 22.34413833, Lon: 114.127295,
				Attributes: model.Attributes{}},
		},
		{
			name:  "hemisphere before each value, no UTC time",
			frame: "imei:353552045403597,tracker,150420050648,53.0,F,0.0,A,N,5306.64155,E,00700.77848,0.0,,1.0,;",
			id:    "353552045403597",
			want: prototest.Position{Time: time.Date(2015, 4, 20, 5, 6, 48, 0, time.UTC), Valid: true, Lat: 53.1106925, Lon: 7.01297467,
				Altitude: 1, Attributes: model.Attributes{}},
		},
		{
			name:  "empty keyword is no event",
			frame: "imei:864035052942928,,241214083746,100%,F,123746.000,A,1012.63368,N,06757.59559,W,0.00,340.61;",
			id:    "864035052942928",
			want: prototest.Position{Time: time.Date(2024, 12, 14, 12, 37, 46, 0, time.UTC), Valid: true, Lat: 10.21056133, Lon: -67.9599265,
				Course: 340.61, Attributes: model.Attributes{}},
		},
		{
			name:  "photo announce vt14 is a plain fix",
			frame: "imei:864180034124375,vt14,190116192753,,F,172750.000,A,3649.2186,N,00235.8411,W,0.00,0,,0,0,51.93%,,+22;",
			id:    "864180034124375",
			want: prototest.Position{Time: time.Date(2019, 1, 16, 17, 27, 50, 0, time.UTC), Valid: true, Lat: 36.82031, Lon: -2.59735167,
				Attributes: model.Attributes{"ignition": false, "door": false, "fuel1": 51.93, "temp1": 22.0}},
		},
		{
			name:  "DTC alarm",
			frame: "imei:353451044508750,DTC,0809231929,,F,055403.000,A,2233.1870,N,11354.3067,E,0.00,30.1,,1,0,10.5%,P0021,;",
			id:    "353451044508750",
			want: prototest.Position{Time: time.Date(2008, 9, 24, 5, 54, 3, 0, time.UTC), Valid: true, Lat: 22.55311667, Lon: 113.90511167,
				Course: 30.1, Attributes: model.Attributes{"alarm": "fault", "ignition": true, "door": false, "fuel1": 10.5}},
		},
		{
			name:  "oil alarm carries the fuel",
			frame: "imei:353451044508750,oil 51.67,0809231929,,F,055403.000,A,2233.1870,N,11354.3067,E,0.00,,;",
			id:    "353451044508750",
			want: prototest.Position{Time: time.Date(2008, 9, 24, 5, 54, 3, 0, time.UTC), Valid: true, Lat: 22.55311667, Lon: 113.90511167,
				Attributes: model.Attributes{"alarm": "fuelLeak", "fuel": 51.67}},
		},
		{
			name:  "engine stop answered (jt)",
			frame: "imei:868166054696190,jt,231226105556,,F,105556.000,A,3518.59664,N,04658.22381,E,0.00,13.26;",
			id:    "868166054696190", result: "jt",
			want: prototest.Position{Time: time.Date(2023, 12, 26, 10, 55, 56, 0, time.UTC), Valid: true, Lat: 35.309944, Lon: 46.97039683,
				Course: 13.26, Attributes: model.Attributes{}},
		},
		{
			name:  "arming refused (lf)",
			frame: "imei:868166054696190,lf,231226095912,,F,095912.000,A,3518.59827,N,04700.04798,E,0.00,196.17;",
			id:    "868166054696190", result: "lf",
			want: prototest.Position{Time: time.Date(2023, 12, 26, 9, 59, 12, 0, time.UTC), Valid: true, Lat: 35.30997117, Lon: 47.00079967,
				Course: 196.17, Attributes: model.Attributes{}},
		},
		{
			name:  "OBD readings with trouble codes",
			frame: "imei:868683027758113,OBD,180905200218,,,,0,0,0.39%,70,9.41%,494,0.00,P0137,P0430,,;",
			id:    "868683027758113",
			want: prototest.Position{Time: prototest.Now, Outdated: true, Attributes: model.Attributes{
				"hours": int64(0), "obdSpeed": int64(0), "engineLoad": 0.39, "coolantTemp": int64(70), "throttle": 9.41,
				"rpm": int64(494), "battery": 0.0, "dtcs": "P0137 P0430"}},
		},
		{
			name:  "OBD odometer, consumption, signed coolant",
			frame: "imei:862106025092216,OBD,170605095949,195874,,370.8,808,066,30.0%,+87,13.0%,02444,14.3,,,,;",
			id:    "862106025092216",
			want: prototest.Position{Time: prototest.Now, Outdated: true, Attributes: model.Attributes{
				"odometer": int64(195874000), "fuelConsumption": 370.8, "hours": int64(2908800000), "obdSpeed": int64(66),
				"engineLoad": 30.0, "coolantTemp": int64(87), "throttle": 13.0, "rpm": int64(2444), "battery": 14.3}},
		},
		{
			name:  "OBD without hours or coolant",
			frame: "imei:862106025092216,OBD,170612165656,196043,,145803.9,,000,0.0%,+,0.0%,00000,12.6,,,,;",
			id:    "862106025092216",
			want: prototest.Position{Time: prototest.Now, Outdated: true, Attributes: model.Attributes{
				"odometer": int64(196043000), "fuelConsumption": 145803.9, "obdSpeed": int64(0),
				"engineLoad": 0.0, "throttle": 0.0, "rpm": int64(0), "battery": 12.6}},
		},
		{
			name:  "OBD without delimiter, one trouble code",
			frame: "imei:359710049032874,OBD,160208152900,13555,,,45,0,24.71%,35,13.73%,1230,14.13,U1108,,,",
			id:    "359710049032874",
			want: prototest.Position{Time: prototest.Now, Outdated: true, Attributes: model.Attributes{
				"odometer": int64(13555000), "hours": int64(162000000), "obdSpeed": int64(0), "engineLoad": 24.71,
				"coolantTemp": int64(35), "throttle": 13.73, "rpm": int64(1230), "battery": 14.13, "dtcs": "U1108"}},
		},
		{
			name:  "OBD without battery voltage",
			frame: "imei:865328021049167,OBD,141118115036,,,0.0,,000,0.0%,+,0.0%,00000,,,,,",
			id:    "865328021049167",
			want: prototest.Position{Time: prototest.Now, Outdated: true, Attributes: model.Attributes{
				"fuelConsumption": 0.0, "obdSpeed": int64(0), "engineLoad": 0.0, "throttle": 0.0, "rpm": int64(0)}},
		},
		{
			name:  "'*' variant with fix",
			frame: "imei:861359038609986,Equipo 1,---,------,----,214734,241018,26,1,-33.42317,-70.61930,067,229,0674,1.00,08,0,1,---,*",
			id:    "861359038609986",
			want: prototest.Position{Time: time.Date(2018, 10, 24, 21, 47, 34, 0, time.UTC), Valid: true, Lat: -33.42317, Lon: -70.6193,
				Speed: 67 / 1.852, Course: 229, Altitude: 674, Attributes: model.Attributes{
					"rssi": int64(26), "sat": int64(8), "hdop": 1.0, "ignition": false, "charge": true}},
		},
		{
			name:  "'*' variant without fix",
			frame: "imei:861359038609986,Equipo 1,---,------,----,214812,241018,14,0,-33.42317,-70.61930,000,000,0000,99.9,00,0,1,---,*",
			id:    "861359038609986",
			want: prototest.Position{Time: time.Date(2018, 10, 24, 21, 48, 12, 0, time.UTC), Lat: -33.42317, Lon: -70.6193,
				Attributes: model.Attributes{"rssi": int64(14), "sat": int64(0), "hdop": 99.9, "ignition": false, "charge": true}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check.Decode(t, newTestProtocol().Decode, tt.frame, prototest.Result{UniqueID: tt.id, Ack: tt.ack, Reply: tt.reply,
				CommandResult: tt.result, Positions: []prototest.Position{tt.want}})
		})
	}
}

// TestDecodeKeywords covers every keyword of the regular frame on the
// Coban document's example fix (local 2008-09-23 14:29, UTC 06:29:47).
func TestDecodeKeywords(t *testing.T) {
	const (
		head = "imei:359586015829802,"
		tail = ",0809231429,13554900601,F,062947.294,A,2234.4026,N,11354.3277,E,0.00,"
	)
	tests := []struct {
		keyword, ack, result string
		attrs                model.Attributes
	}{
		{"tracker", "", "", model.Attributes{}},
		{"help me", "**,imei:359586015829802,E;", "", model.Attributes{"alarm": "sos"}},
		{"low battery", "", "", model.Attributes{"alarm": "lowBattery"}},
		{"stockade", "", "", model.Attributes{"alarm": "geofence"}},
		{"move", "", "", model.Attributes{"alarm": "movement"}},
		{"speed", "", "", model.Attributes{"alarm": "overspeed"}},
		{"door alarm", "", "", model.Attributes{"alarm": "door"}},
		{"ac alarm", "", "", model.Attributes{"alarm": "powerCut"}},
		{"accident alarm", "", "", model.Attributes{"alarm": "accident"}},
		{"sensor alarm", "", "", model.Attributes{"alarm": "vibration"}},
		{"bonnet alarm", "", "", model.Attributes{"alarm": "bonnet"}},
		{"footbrake alarm", "", "", model.Attributes{"alarm": "footBrake"}},
		{"DTC", "", "", model.Attributes{"alarm": "fault"}},
		{"oil1", "", "", model.Attributes{"alarm": "fuelLeak"}},
		{"oil2", "", "", model.Attributes{"alarm": "fuelLeak"}},
		{"oil 51.67", "", "", model.Attributes{"alarm": "fuelLeak", "fuel": 51.67}},
		{"T:+28.0", "", "", model.Attributes{"alarm": "temperature", "temp1": 28.0}},
		{"acc on", "", "", model.Attributes{"ignition": true}},
		{"acc off", "", "", model.Attributes{"ignition": false}},
		{"acc alarm", "", "", model.Attributes{"event": "acc alarm"}},
		{"rfid", "", "", model.Attributes{"event": "rfid", "driverUniqueId": "13554900601"}},
		{"001", "", "", model.Attributes{"event": "001"}},
		{"jt", "", "jt", model.Attributes{}},
		{"kt", "", "kt", model.Attributes{}},
		{"ht", "", "ht", model.Attributes{}},
		{"lt", "", "lt", model.Attributes{}},
		{"lf", "", "lf", model.Attributes{}},
		{"mt", "", "mt", model.Attributes{}},
		{"ot", "", "ot", model.Attributes{}},
		{"vt3", "", "", model.Attributes{}},
	}
	for _, tt := range tests {
		t.Run(tt.keyword, func(t *testing.T) {
			check.Decode(t, newTestProtocol().Decode, head+tt.keyword+tail, prototest.Result{
				UniqueID: "359586015829802", Ack: tt.ack, CommandResult: tt.result,
				Positions: []prototest.Position{{Time: time.Date(2008, 9, 23, 6, 29, 47, 0, time.UTC), Valid: true,
					Lat: 22.57337667, Lon: 113.90546167, Attributes: tt.attrs}},
			})
		})
	}
}

// TestDecodeLocalTimeOffset: frames without a fix are stamped with their
// local time once a fix on the same connection has shown its offset.
func TestDecodeLocalTimeOffset(t *testing.T) {
	p := newTestProtocol()
	conn := &protocols.Conn{}
	// A rejected frame teaches nothing, though its times are fine.
	rejected := "imei:359710049090138,T:hot,160629022948,,F,182949.000,A,4043.8839,N,11328.8029,W,0,0;"
	if _, err := p.Decode(conn, []byte(rejected)); err == nil {
		t.Fatalf("%q decoded", rejected)
	}
	frames := []struct {
		frame string
		want  prototest.Position
	}{
		{"imei:359710049090138,OBD,160629022949,51442,0.00,15.88,5632,122,40.39%,95,0.00%,2101,13.80,,,,;",
			prototest.Position{Time: prototest.Now, Outdated: true, Attributes: obdAttributes}},
		// Local 02:29 against UTC 18:29: local time is UTC + 8 h.
		{"imei:359710049090138,tracker,160629022948,,F,182949.000,A,4043.8839,N,11328.8029,W,65.26,271.82,,1,0,31.37%,51442,;",
			prototest.Position{Time: time.Date(2016, 6, 28, 18, 29, 49, 0, time.UTC), Valid: true, Lat: 40.73139833, Lon: -113.48004833,
				Speed: 65.26, Course: 271.82, Attributes: model.Attributes{"ignition": true, "door": false, "fuel1": 31.37}}},
		{"imei:359710049090138,OBD,160629022949,51442,0.00,15.88,5632,122,40.39%,95,0.00%,2101,13.80,,,,;",
			prototest.Position{Time: time.Date(2016, 6, 28, 18, 29, 49, 0, time.UTC), Outdated: true, Attributes: obdAttributes}},
		{"imei:359710049090138,sensor alarm,1606290315,,L,,,296a,,51f7,,,",
			prototest.Position{Time: time.Date(2016, 6, 28, 19, 15, 0, 0, time.UTC), Outdated: true,
				Attributes: model.Attributes{"alarm": "vibration"}, Network: cellNetwork(0x296a, 0x51f7)}},
		// A zero stamp still gets the server's clock.
		{"imei:359710049090138,tracker,000000000,,L,;",
			prototest.Position{Time: prototest.Now, Outdated: true, Attributes: model.Attributes{}}},
	}
	for _, f := range frames {
		res, err := p.Decode(conn, []byte(f.frame))
		if err != nil {
			t.Fatalf("%q: %v", f.frame, err)
		}
		check.Result(t, res, prototest.Result{UniqueID: "359710049090138", Positions: []prototest.Position{f.want}})
	}
}

// obdAttributes are the readings of the OBD frame of TestDecodeLocalTimeOffset.
var obdAttributes = model.Attributes{
	"odometer": int64(51442000), "fuelConsumption": 15.88, "hours": int64(20275200000), "obdSpeed": int64(122),
	"engineLoad": 40.39, "coolantTemp": int64(95), "throttle": 0.0, "rpm": int64(2101), "battery": 13.8}

func TestDecodeUnsupported(t *testing.T) {
	tests := []struct {
		name, frame, id, reason string
	}{
		{"photo packet", framePhoto, "864180034124375", "photo data (vr) not decoded"},
		{"unknown location source", "imei:359710045559474,tracker,151030080103,,X,000101.000,A,5443.3834,N,02512.9071,E,0,0;",
			"359710045559474", `location source "X" not decoded`},
		{"no location source", "imei:359710045559474,tracker,151030080103;", "359710045559474", `location source "" not decoded`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := newTestProtocol().Decode(&protocols.Conn{}, []byte(tt.frame))
			if err != nil {
				t.Fatal(err)
			}
			if res.Unsupported != tt.reason || res.UniqueID != tt.id || len(res.Positions) != 0 ||
				res.Reply != nil || res.Ack != nil || res.CommandResult != "" {
				t.Errorf("got %+v, want id %q unsupported %q and nothing else", res, tt.id, tt.reason)
			}
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
		"imei:359710045559474,oil x,151030080103,,L,;",
		"359710045559474imei:359710045559474,tracker,151330080103,,F,000101.000,A,5443.3834,N,02512.9071,E,0,0;",
		// OBD: short stamp, bad numbers, missing fields.
		"imei:868683027758113,OBD,1809052002,,,,0,0,0.39%,70,9.41%,494,0.00,,;",
		"imei:868683027758113,OBD,180905200218,x,,,0,0,0.39%,70,9.41%,494,0.00,,;",
		"imei:868683027758113,OBD,180905200218,,,,0,0,lots%,70,9.41%,494,0.00,,;",
		"imei:868683027758113,OBD,180905200218,,,,0,0,0.39%,hot,9.41%,494,0.00,,;",
		"imei:868683027758113,OBD,180905200218,,,,0,0,0.39%,70,9.41%,-494,0.00,,;",
		"imei:868683027758113,OBD,180905200218,,,,0,0,0.39%,70,9.41%,494;",
		// '*' variant: bad time, fix flag, coordinate, flag; too short.
		"imei:359710045559474,tracker,1,1,1,1,1,1,1,1,1,1,1*",
		"imei:861359038609986,Equipo 1,---,------,----,214734,241318,26,1,-33.42317,-70.61930,067,229,0674,1.00,08,0,1,---,*",
		"imei:861359038609986,Equipo 1,---,------,----,214734,241018,26,2,-33.42317,-70.61930,067,229,0674,1.00,08,0,1,---,*",
		"imei:861359038609986,Equipo 1,---,------,----,214734,241018,26,1,-93.42317,-70.61930,067,229,0674,1.00,08,0,1,---,*",
		"imei:861359038609986,Equipo 1,---,------,----,214734,241018,26,1,-33.42317,-70.61930,067,229,0674,1.00,08,x,1,---,*",
		"imei:861359038609986,Equipo 1,---,------,----,214734,241018,26,1,-33.42317,-70.61930,067,229,0674,1.00,08,0,1*",
	)
}
