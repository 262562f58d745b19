package tk103

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// check compares decoded results with expectations; speeds are converted
// from km/h.
var check = prototest.Checker{Protocol: Name, SpeedTolerance: 1e-9}

func newTestProtocol() *Protocol {
	p := New()
	p.now = prototest.Clock
	return p
}

// status is what the status block `<charge><ignition>000<fuel>` with all
// io lines low decodes to; odometer < 0 means the block has none.
func status(charging, ignition bool, fuel, odometer int64) model.Attributes {
	a := model.Attributes{"charge": charging, "ignition": ignition, "in2": int64(0), "panic": int64(0),
		"out2": int64(0), "fuel": fuel}
	if odometer >= 0 {
		a["odometer"] = odometer
	}
	return a
}

// with returns a copy of a with the given extra attributes.
func with(a model.Attributes, kv ...any) model.Attributes {
	out := model.Attributes{}
	for k, v := range a {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

func TestDecodeHandshake(t *testing.T) {
	for _, tt := range []struct{ frame, id string }{
		{"(087073005534BP00HSO)", "087073005534"},
		{"(027044702512BP00027044702512HSO01A4)", "027044702512"},
		{"(090411121854BP0000001234567890HSO)", "090411121854"},
	} {
		check.Decode(t, newTestProtocol().Decode, tt.frame, prototest.Result{UniqueID: tt.id, Reply: "(" + tt.id + "AP01HSO)"})
	}
}

func TestDecodePositions(t *testing.T) {
	tests := []struct {
		name, frame, id, ack string
		want                 prototest.Position
	}{
		{
			name:  "BR00 with status block and odometer",
			frame: "(088047365460BR00151024A2555.3531S02855.3329E004.7055148276.1701000000L00009AA3)",
			id:    "088047365460",
			want: prototest.Position{Time: time.Date(2015, 10, 24, 5, 51, 48, 0, time.UTC), Valid: true, Lat: -25.92255, Lon: 28.92222,
				Speed: 4.7 / 1.852, Course: 276.17, Attributes: status(true, true, 0, 0x9AA3)},
		},
		{
			name:  "BP05 login carries IMEI and a position, answered once stored",
			frame: "(088048003342BP05354188048003342150917A1352.9801N10030.9050E000.0103115265.5600010000L000003F9)",
			id:    "088048003342", ack: "(088048003342AP05)",
			want: prototest.Position{Time: time.Date(2015, 9, 17, 10, 31, 15, 0, time.UTC), Valid: true, Lat: 13.88300, Lon: 100.51508,
				Course: 265.56, Attributes: with(status(true, false, 0, 0x3F9), "hs3", int64(1))},
		},
		{
			name:  "BP05 login, comma form",
			frame: "(352606090042050,BP05,240414,A,4527.3513N,00909.9758E,4.80,112825,155.49)",
			id:    "352606090042050", ack: "(352606090042050AP05)",
			want: prototest.Position{Time: time.Date(2014, 4, 24, 11, 28, 25, 0, time.UTC), Valid: true, Lat: 45.455855, Lon: 9.166263,
				Speed: 4.8 / 1.852, Course: 155.49, Attributes: model.Attributes{}},
		},
		{
			name:  "BQ81 alarm form",
			frame: "(044027395704BQ81,ALARM,1,164,151101A2238.5237N11349.4571E0.7031241010.0000,00000000)",
			id:    "044027395704",
			want: prototest.Position{Time: time.Date(2015, 11, 1, 12, 41, 1, 0, time.UTC), Valid: true, Lat: 22.642062, Lon: 113.824285,
				Speed: 0.703 / 1.852, Attributes: model.Attributes{"alarm": "overspeed"}},
		},
		{
			name:  "comma form with IMEI, ddMMyy date",
			frame: "(864768011069660,ZC17,250517,A,3211.7118N,03452.8086E,0.68,115525,208.19,64.50,9)",
			id:    "864768011069660",
			want: prototest.Position{Time: time.Date(2017, 5, 25, 11, 55, 25, 0, time.UTC), Valid: true, Lat: 32.19520, Lon: 34.88014,
				Speed: 0.68 / 1.852, Course: 208.19, Attributes: model.Attributes{"alarm": "removing"}},
		},
		{
			name:  "ZC11 movement without fix",
			frame: "(864768011069660,ZC11,250517,V,0000.0000N,00000.0000E,000.0,114725,000.0,0.00,11)",
			id:    "864768011069660",
			want: prototest.Position{Time: time.Date(2017, 5, 25, 11, 47, 25, 0, time.UTC),
				Attributes: model.Attributes{"alarm": "movement"}},
		},
		{
			name:  "BO01 alarm, acked with its code once stored; month 18 rolls over",
			frame: "(013612345678BO012061830A2934.0133N10627.2544E040.0080331309.6200000000L000770AD)",
			id:    "013612345678", ack: "(013612345678AS012)",
			want: prototest.Position{Time: time.Date(2007, 6, 30, 8, 3, 31, 0, time.UTC), Valid: true, Lat: 29.566888, Lon: 106.454240,
				Speed: 40 / 1.852, Course: 309.62, Attributes: with(status(true, false, 0, 0x770AD), "alarm", "sos")},
		},
		{
			name:  "BO02 alarm sent again from the buffer",
			frame: "(013632782450BO022080524A2934.0133N10627.2544E040.0061830309.6200000000L000770EF)",
			id:    "013632782450",
			want: prototest.Position{Time: time.Date(2008, 5, 24, 6, 18, 30, 0, time.UTC), Valid: true, Lat: 29.566888, Lon: 106.454240,
				Speed: 40 / 1.852, Course: 309.62, Attributes: with(status(true, false, 0, 0x770EF), "alarm", "sos")},
		},
		{
			name:  "BP04 answer to a position request",
			frame: "(013612345678BP04080525A2934.0133N10627.2544E000.0141830309.6200000000L00000023)",
			id:    "013612345678",
			want: prototest.Position{Time: time.Date(2008, 5, 25, 14, 18, 30, 0, time.UTC), Valid: true, Lat: 29.566888, Lon: 106.454240,
				Course: 309.62, Attributes: status(true, false, 0, 0x23)},
		},
		{
			name:  "BR01 buffered position",
			frame: "(013632782450BR01080612A2232.9828N11404.9297E000.0022828000.0000000000L000230)",
			id:    "013632782450",
			want: prototest.Position{Time: time.Date(2008, 6, 12, 2, 28, 28, 0, time.UTC), Valid: true, Lat: 22.549713, Lon: 114.082162,
				Attributes: status(true, false, 0, 0x230)},
		},
		{
			name:  "BR02 last position of a tracking period",
			frame: "(013612345678BR02080612A2232.9828N11404.9297E000.0022828000.0000000000L000230AA)",
			id:    "013612345678",
			want: prototest.Position{Time: time.Date(2008, 6, 12, 2, 28, 28, 0, time.UTC), Valid: true, Lat: 22.549713, Lon: 114.082162,
				Attributes: status(true, false, 0, 0x230AA)},
		},
		{
			name:  "BR03 position on request",
			frame: "(013632782450BR03080525A2934.0133N10627.2544E000.0141830309.6200000000L200300C6)",
			id:    "013632782450",
			want: prototest.Position{Time: time.Date(2008, 5, 25, 14, 18, 30, 0, time.UTC), Valid: true, Lat: 29.566888, Lon: 106.454240,
				Course: 309.62, Attributes: status(true, false, 0, 0x200300C6)},
		},
		{
			name:  "invalid fix, west, active io lines (constructed)",
			frame: "(088047365460BR01151024V2555.3531N02855.3329W100.0235959001.0011BFE21AL1)",
			id:    "088047365460",
			want: prototest.Position{Time: time.Date(2015, 10, 24, 23, 59, 59, 0, time.UTC), Lat: 25.92255, Lon: -28.92222,
				Speed: 100 / 1.852, Course: 1,
				Attributes: model.Attributes{"charge": false, "ignition": true, "in2": int64(1), "panic": int64(1),
					"out2": int64(0), "blocked": int64(1), "hs3": int64(1), "hs2": int64(1), "hs1": int64(1),
					"door": int64(1), "ls3": int64(1), "ls2": int64(1), "ls1": int64(1), "fuel": int64(0x21A), "odometer": int64(1)}},
		},
		{
			name:  "ignition on type (constructed)",
			frame: "(864768011069660,ZC15,250517,A,3211.7118N,03452.8086E,12.5,115525,90.5)",
			id:    "864768011069660",
			want: prototest.Position{Time: time.Date(2017, 5, 25, 11, 55, 25, 0, time.UTC), Valid: true, Lat: 32.19520, Lon: 34.88014,
				Speed: 12.5 / 1.852, Course: 90.5, Attributes: model.Attributes{"ignition": true}},
		},
		{
			name:  "11-digit id",
			frame: "(01602009983BR00160830V1855.7022S4817.8731W000.0002729000.0010000000L00000000)",
			id:    "01602009983",
			want: prototest.Position{Time: time.Date(2016, 8, 30, 0, 27, 29, 0, time.UTC), Lat: -18.928370, Lon: -48.297885,
				Attributes: status(false, false, 0, 0)},
		},
		{
			name:  "11-digit id, 8-digit odometer",
			frame: "(01029131573BR00150428A3801.6382N02351.0159E000.0080729278.7800000000LEF9ECB9C)",
			id:    "01029131573",
			want: prototest.Position{Time: time.Date(2015, 4, 28, 8, 7, 29, 0, time.UTC), Valid: true, Lat: 38.027303, Lon: 23.850265,
				Course: 278.78, Attributes: status(true, false, 0, 0xEF9ECB9C)},
		},
		{
			name:  "15-digit id, BP02 position with a source prefix",
			frame: "(357593060760397BP02,G,2,170304A6015.7466N01101.8460E001.609445591.048,7)",
			id:    "357593060760397",
			want: prototest.Position{Time: time.Date(2017, 3, 4, 9, 44, 55, 0, time.UTC), Valid: true, Lat: 60.262443, Lon: 11.030767,
				Speed: 1.6 / 1.852, Course: 91.048, Attributes: model.Attributes{}},
		},
		{
			name:  "12-character id with letters",
			frame: "(BALLESTEROS3BR00190408A4113.5700N00140.3100E000.0162431000.0001000000L00000000)",
			id:    "BALLESTEROS3",
			want: prototest.Position{Time: time.Date(2019, 4, 8, 16, 24, 31, 0, time.UTC), Valid: true, Lat: 41.226167, Lon: 1.671833,
				Attributes: status(true, true, 0, 0)},
		},
		{
			name:  "space-padded coordinates, speed and course",
			frame: "(027023361470BR00200617A4000.5775N 8415.4076W 46.0173725 87.3101000000L00000000)",
			id:    "027023361470",
			want: prototest.Position{Time: time.Date(2020, 6, 17, 17, 37, 25, 0, time.UTC), Valid: true, Lat: 40.009625, Lon: -84.256793,
				Speed: 46 / 1.852, Course: 87.31, Attributes: status(true, true, 0, 0)},
		},
		{
			name:  "temperature after the odometer",
			frame: "(088046338039BR00160727A3354.7768N03540.7258E000.0140832068.4700000000L00BEB0D4+017.7)",
			id:    "088046338039",
			want: prototest.Position{Time: time.Date(2016, 7, 27, 14, 8, 32, 0, time.UTC), Valid: true, Lat: 33.912947, Lon: 35.678763,
				Course: 68.47, Attributes: with(status(true, false, 0, 0xBEB0D4), "temp1", 17.7)},
		},
		{
			name:  "fuel, two-digit course and trailing fields",
			frame: "(086375304593BR00210119A2220.0160N11335.4073E0000014000309.84001000293L0000015FP23BS27F)",
			id:    "086375304593",
			want: prototest.Position{Time: time.Date(2021, 1, 19, 14, 0, 3, 0, time.UTC), Valid: true, Lat: 22.3336, Lon: 113.590122,
				Course: 9.84, Attributes: status(true, true, 0x293, 0x15F)},
		},
		{
			name:  "DW3B, longitude without degrees",
			frame: "(868822040452227,DW3B,150421,A,4154.51607N,45.78950E,0.050,103142,0.000,595.200,7,0)",
			id:    "868822040452227",
			want: prototest.Position{Time: time.Date(2021, 4, 15, 10, 31, 42, 0, time.UTC), Valid: true, Lat: 41.908601, Lon: 0.763158,
				Speed: 0.05 / 1.852, Attributes: model.Attributes{}},
		},
		{
			name:  "DW30 GPS position",
			frame: "(864768010869060,DW30,050117,A,5135.82713N,00001.17918E,0.089,154745,000.0,43.40,12)",
			id:    "864768010869060",
			want: prototest.Position{Time: time.Date(2017, 1, 5, 15, 47, 45, 0, time.UTC), Valid: true, Lat: 51.597119, Lon: 0.019653,
				Speed: 0.089 / 1.852, Attributes: model.Attributes{}},
		},
		{
			name:  "BV00 VIN",
			frame: "(027023361470BV005J6RW2H53HL066029)",
			id:    "027023361470",
			want:  prototest.Position{Time: prototest.Now, Outdated: true, Attributes: model.Attributes{"vin": "5J6RW2H53HL066029"}},
		},
		{
			name:  "ZC20 battery report",
			frame: "(013632651491,ZC20,040613,040137,6,421,112,0)",
			id:    "013632651491",
			want: prototest.Position{Time: time.Date(2013, 6, 4, 4, 1, 37, 0, time.UTC), Outdated: true,
				Attributes: model.Attributes{"batteryLevel": int64(100), "battery": 4.21, "power": 11.2}},
		},
		{
			name:  "ZC20 without power reading",
			frame: "(864768010159785,ZC20,291015,030413,3,362,65535,255)",
			id:    "864768010159785",
			want: prototest.Position{Time: time.Date(2015, 10, 29, 3, 4, 13, 0, time.UTC), Outdated: true,
				Attributes: model.Attributes{"batteryLevel": int64(20), "battery": 3.62}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check.Decode(t, newTestProtocol().Decode, tt.frame, prototest.Result{UniqueID: tt.id, Ack: tt.ack,
				Positions: []prototest.Position{tt.want}})
		})
	}
}

// TestDecodeAlarmCodes runs the real BO01 frame with each alarm digit of
// the protocol document: every one is stored with its alarm and confirmed
// with AS01 and the same digit.
func TestDecodeAlarmCodes(t *testing.T) {
	for code, alarm := range map[string]string{"0": "powerCut", "1": "accident", "2": "sos", "3": "vibration",
		"4": "lowspeed", "5": "overspeed", "6": "geofenceExit", "9": ""} {
		frame := "(013612345678BO01" + code + "061830A2934.0133N10627.2544E040.0080331309.6200000000L000770AD)"
		want := status(true, false, 0, 0x770AD)
		if alarm != "" {
			want["alarm"] = alarm
		}
		check.Decode(t, newTestProtocol().Decode, frame, prototest.Result{UniqueID: "013612345678", Ack: "(013612345678AS01" + code + ")",
			Positions: []prototest.Position{{Time: time.Date(2007, 6, 30, 8, 3, 31, 0, time.UTC), Valid: true, Lat: 29.566888,
				Lon: 106.454240, Speed: 40 / 1.852, Course: 309.62, Attributes: want}}})
	}
}

func tower(mcc, mnc, lac int, cid int64) map[string]any {
	return map[string]any{"mobileCountryCode": mcc, "mobileNetworkCode": mnc, "locationAreaCode": lac, "cellId": cid}
}

func gsm(towers ...map[string]any) map[string]any {
	return map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": towers}
}

// TestDecodeCells covers the frames without a fix: the cells and Wi-Fi
// access points go to Network, the location is the last known one.
func TestDecodeCells(t *testing.T) {
	tests := []struct {
		name, frame, id, ack string
		want                 prototest.Position
	}{
		{
			name:  "BP05 login with a cell list is answered and stored",
			frame: "(027045009305BP05355227045009305,{413,2,30073,16724}\n{413,2,30073,16730}\n{413,2,30073,49860}\n,01000000)",
			id:    "027045009305", ack: "(027045009305AP05)",
			want: prototest.Position{Time: prototest.Now, Outdated: true, Attributes: status(true, true, 0, -1),
				Network: gsm(tower(413, 2, 30073, 16724), tower(413, 2, 30073, 16730), tower(413, 2, 30073, 49860))},
		},
		{
			name:  "BZ00 cell list",
			frame: "(027046434858BZ00,{460,0,20949,58711}\n{460,0,20494,54003}\n{460,0,20951,19569}\n,01000000)",
			id:    "027046434858",
			want: prototest.Position{Time: prototest.Now, Outdated: true, Attributes: status(true, true, 0, -1),
				Network: gsm(tower(460, 0, 20949, 58711), tower(460, 0, 20494, 54003), tower(460, 0, 20951, 19569))},
		},
		{
			name:  "BZ00 hex cell pairs and status flags",
			frame: "(087073104337BZ00,740,000,3bf7,0425,3bf7,0bf5,3bf7,09e7,3bf7,cbad,3bf7,0dcf,3bf7,c7b2,01000000)",
			id:    "087073104337",
			want: prototest.Position{Time: prototest.Now, Outdated: true, Attributes: status(true, true, 0, -1),
				Network: gsm(tower(740, 0, 0x3bf7, 0x0425), tower(740, 0, 0x3bf7, 0x0bf5), tower(740, 0, 0x3bf7, 0x09e7),
					tower(740, 0, 0x3bf7, 0xcbad), tower(740, 0, 0x3bf7, 0x0dcf), tower(740, 0, 0x3bf7, 0xc7b2))},
		},
		{
			name:  "BZ00 hex cells with signal",
			frame: "(088047194605BZ00,510,010,36e6,932c,43,36e6,766b,36,36e6,7668,32)",
			id:    "088047194605",
			want: prototest.Position{Time: prototest.Now, Outdated: true, Attributes: model.Attributes{},
				Network: gsm(tower(510, 10, 0x36e6, 0x932c), tower(510, 10, 0x36e6, 0x766b), tower(510, 10, 0x36e6, 0x7668))},
		},
		{
			name:  "DW5B cell without Wi-Fi",
			frame: "(358511020000026,DW5B,310,6,29876,30393,0,041217,102211)",
			id:    "358511020000026",
			want: prototest.Position{Time: time.Date(2017, 12, 4, 10, 22, 11, 0, time.UTC), Outdated: true, Attributes: model.Attributes{},
				Network: gsm(tower(310, 6, 29876, 30393))},
		},
		{
			name:  "DW50 cell without Wi-Fi",
			frame: "(013632651491,DW50,460,0,0,6,0,040613,040137)",
			id:    "013632651491",
			want: prototest.Position{Time: time.Date(2013, 6, 4, 4, 1, 37, 0, time.UTC), Outdated: true, Attributes: model.Attributes{},
				Network: gsm(tower(460, 0, 0, 6))},
		},
		{
			name:  "DW51 movement with cell and Wi-Fi",
			frame: "(864555555555555,DW51,200,1,3215,43370,2,58:F3:BB:3B:AA:82*-65*1,1C:6A:BB:AA:81:95*-78*1,151117,154419)",
			id:    "864555555555555",
			want: prototest.Position{Time: time.Date(2017, 11, 15, 15, 44, 19, 0, time.UTC), Outdated: true,
				Attributes: model.Attributes{"alarm": "movement"},
				Network: map[string]any{"radioType": "gsm", "considerIp": false,
					"cellTowers": []map[string]any{tower(200, 1, 3215, 43370)},
					"wifiAccessPoints": []map[string]any{
						{"macAddress": "58:f3:bb:3b:aa:82", "signalStrength": -65, "channel": 1},
						{"macAddress": "1c:6a:bb:aa:81:95", "signalStrength": -78, "channel": 1},
					}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check.Decode(t, newTestProtocol().Decode, tt.frame, prototest.Result{UniqueID: tt.id, Ack: tt.ack,
				Positions: []prototest.Position{tt.want}})
		})
	}
}

// TestDecodeBMS covers the battery management reports of electric vehicle
// trackers.
func TestDecodeBMS(t *testing.T) {
	tests := []struct {
		name, frame, id string
		want            model.Attributes
	}{
		{
			name: "BS50 binary block",
			frame: "(352602014867BS500064FF0EF10FF10FF00FF20FF30FF20FF20FF40FF20FF40FF40FF20FF30FF20F00000000000000000000" +
				"00000000000000000000000000001663000000010004000000000000000002444444420000000000A00FA000000000000000200000000315E2000000)",
			id: "352602014867",
			want: model.Attributes{
				"battery1": 4.081, "battery2": 4.081, "battery3": 4.080, "battery4": 4.082, "battery5": 4.083,
				"battery6": 4.082, "battery7": 4.082, "battery8": 4.084, "battery9": 4.082, "battery10": 4.084,
				"battery11": 4.084, "battery12": 4.082, "battery13": 4.083, "battery14": 4.082,
				"charge": true, "current": 0.0, "battery": 56.32, "batteryLevel": 99,
				"batteryOverheat": false, "chargeProtection": false, "dischargeProtection": false,
				"cycles": 4, "faultAlarm": 0, "powerTemp": 28, "equilibriumTemp": 28,
				"batteryTemp1": 28, "batteryTemp2": 26, "calibrationCapacity": 40.0, "dischargeCapacity": int64(160),
			},
		},
		{
			name: "BS51 Daly frames, big-endian",
			frame: "(007030201454BS5190:02150000753001DC,91:0EE8060EDC0A01DC,92:42014201DC0A01DC,93:00010127000037C8," +
				"94:0E01000002000000,95:020EE10EE20EE800030EE40EE00EE700040EDD0EE40EE400050EDC0EDF0EE400," +
				"96:0142000000000000,97:0000000000000000,98:0000000000000000)",
			id: "007030201454",
			want: model.Attributes{
				"cumulativeVoltage": 53.3, "gatherVoltage": 0.0, "current": 0.0, "soc": 47.6,
				"maxCellVoltage": 3.816, "maxCellVoltageCount": 6, "minCellVoltage": 3.804, "minCellVoltageCount": 10,
				"maxTemp": 26, "maxTempCount": 1, "minTemp": 26, "minTempCount": 1, "cellTemp1": 26,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check.Decode(t, newTestProtocol().Decode, tt.frame, prototest.Result{UniqueID: tt.id,
				Positions: []prototest.Position{{Time: prototest.Now, Outdated: true, Attributes: tt.want}}})
		})
	}
}

// TestDecodeCommandResults covers the device's answers to commands: no
// position, no answer, the text to the command result.
func TestDecodeCommandResults(t *testing.T) {
	tests := []struct{ frame, id, result string }{
		{"(864555555555555,ZC03,191117,234207,$Notice: Device version: 1.0$)", "864555555555555", "Notice: Device version: 1.0"},
		{"(864555555555555,ZC03,191117,234207,$1 .Sensor sensitivity: 1\r\n2 .Alert status: Off\r\n3 .Check interval is set to 240 minute(s).$)",
			"864555555555555", "1 .Sensor sensitivity: 1\r\n2 .Alert status: Off\r\n3 .Check interval is set to 240 minute(s)."},
		{"(013632782450BP01GPS518,DEC,22,2008)", "013632782450", "GPS518,DEC,22,2008"},
		{"(013612345678BP12H0501L030)", "013612345678", "BP12H0501L030"},
		{"(013632782450BP02)", "013632782450", "BP02"},
		{"(013632782450BP01)", "013632782450", "BP01"},
		{"(013632782450BS20)", "013632782450", "BS20"},
		{"(013612345678BV001)", "013612345678", "BV001"},
		{"(013612345678BV011)", "013612345678", "BV011"},
		{"(013612345678BT00)", "013612345678", "BT00"},
	}
	for _, tt := range tests {
		check.Decode(t, newTestProtocol().Decode, tt.frame, prototest.Result{UniqueID: tt.id, CommandResult: tt.result})
	}
}

// TestDecodeUnsupported: a well-formed frame of a type fleetd does not
// decode names the device and gets neither an answer nor a position.
func TestDecodeUnsupported(t *testing.T) {
	tests := []struct{ frame, id, reason string }{
		{"(027028258309BQ86,0,05550c21b10d1d0f431008bd114c0ea5078400010007a100423932,161117005322,01000001)", "027028258309",
			"message type BQ86 not decoded"},
		{"(013612345678BR0430005300680065)", "013612345678", "message type BR04 not decoded"},
		{"(864768011069660,ZC99,1,2,3)", "864768011069660", "message type ZC99 not decoded"},
	}
	for _, tt := range tests {
		res, err := newTestProtocol().Decode(&protocols.Conn{}, []byte(tt.frame))
		if err != nil || res.UniqueID != tt.id || res.Unsupported != tt.reason ||
			res.Reply != nil || res.Ack != nil || res.Positions != nil || res.CommandResult != "" {
			t.Errorf("%q: %+v, %v; want id %q unsupported %q and nothing else", tt.frame, res, err, tt.id, tt.reason)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	prototest.DecodeRejects(t, newTestProtocol().Decode, model.ErrInvalid,
		"",
		"()",
		"(088047365460BR00",
		"(08804736546)",
		"(0880-7365460BR00151024A2555.3531S02855.3329E004.7055148276.17)",
		"(08804BR00151024A2555.3531S02855.3329E004.7055148276.17)",
		"(088047365460BR0015102A2555.3531S02855.3329E004.7055148276.17)",
		"(088047365460BR00151024X2555.3531S02855.3329E004.7055148276.17)",
		"(088047365460BR00151024A2575.3531S02855.3329E004.7055148276.17)",
		"(088047365460BR00151024A9155.3531S02855.3329E004.7055148276.17)",
		"(088047365460BR00151024A2555.3531Q02855.3329E004.7055148276.17)",
		"(088047365460BR00151024A2555.3531S02855.3329E004.70551)",
		"(088047365460BR00151024A2555.3531S02855.3329E.....055148276.17)",
		"(088047365460BQ81,ALARM,1,,151101A2238.5237N11349.4571E0.7031241010.0000)",
		"(088047365460BZ00,250,1,XYZ,C3D4)",
		"(088047365460BZ00,250)",
		"(027045009305BP05355227045009305,{413,2,30073}\n,01000000)",
		"(027045009305BP05355227045009305,{413,2,30073,16724}\n,0100000X)",
		"(027045009305BP05ABC,{413,2,30073,16724}\n,01000000)",
		"(864555555555555,DW51,200,1,3215,43370,2,58:F3:BB:3B:AA:82*-65*1,151117,154419)",
		"(864555555555555,DW51,200,1,3215,43370,1,58:F3:BB:3B:AA*-65*1,151117,154419)",
		"(864555555555555,DW5B,310,6,29876,30393,0,041217)",
		"(352602014867BS500064FF0E)",
		"(352602014867BS50XYZ)",
		"(007030201454BS5190:0215)",
		"(007030201454BS51ZZ:0215000075300100)",
		"(864768011069660,ZC20,131117,22370,6,394,65535,255)",
		"(864768011069660,ZC03,131117,223706,no text)",
	)
}
