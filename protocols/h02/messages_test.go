package h02

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// Real frames of the message types added for issue 13 (public captures from
// Traccar's H02 decoder tests); the expected values are worked out from the
// field layout by hand.
const (
	textV8  = "*HQ,9001000002,V8,213945,A,3542.2043,N,38.6508,W,0.00,170,221025,FBFFF9FF,0,0,0,0,22,31,126,0#"
	textSMS = "*HQ,5226073533,SMS,ST906(70SACD)_TQ_V_2.0 2024/06/07\nID:5226073533\nIP:1.2.3.4 5013\nUT:30,30,300\nVOLT:12.9V\nAPN:internet.example.com\nGPS:A-24-23\nGSM:26#"
	textV5  = "*HQ,9180271064,V5,091233,V,2348.8912,N,09021.3302,E,000.00,000,051219,FFFFBBFF,470,01,21019,2033,2921283#"
	textV6  = "*HQ,3177718238,V6,002926,V,3514.4088,N,9733.2842,W,0.00,0.00,151222,FFF7FBFF,310,260,32936,13641,8944501311217563382F,#"
	bin42   = "2435248308419329301047591808172627335900074412294E024138FEFFFFFFFF01120064BA73005ECC"
	bin45b  = "2491802711800850240512192350143206090249758e000001ffffbbff00bdf0900000000001d60161cc4b9a35"
	bin46   = "2421305109380127171003170520046500100286297e003085ffffdfffff03440069129344006400001151415a20"
	bin48   = "24971305007205201916101533335008000073206976000000effffbffff000252776566060000000000000000000049"
)

func TestDecodeMessageTypes(t *testing.T) {
	runDecodeCases(t, []decodeCase{{
		name:   "V8 with a longitude under one degree",
		frame:  []byte(textV8),
		id:     "9001000002",
		fix:    &fix{time: "2025-10-22 21:39:45", valid: true, lat: 35.703405, lon: -0.64418, course: 170},
		attrs:  model.Attributes{"status": int64(0xFBFFF9FF), "ignition": false, "io5": "22", "io6": "31", "io7": "126", "io8": "0"},
		absent: []string{"alarm", "io9"},
	}, {
		name:   "SMS answer with commas and line breaks",
		frame:  []byte(textSMS),
		id:     "5226073533",
		at:     "2024-01-02 03:04:05",
		result: "ST906(70SACD)_TQ_V_2.0 2024/06/07\nID:5226073533\nIP:1.2.3.4 5013\nUT:30,30,300\nVOLT:12.9V\nAPN:internet.example.com\nGPS:A-24-23\nGSM:26",
		attrs: model.Attributes{"result": "ST906(70SACD)_TQ_V_2.0 2024/06/07\nID:5226073533\nIP:1.2.3.4 5013\n" +
			"UT:30,30,300\nVOLT:12.9V\nAPN:internet.example.com\nGPS:A-24-23\nGSM:26"},
	}, {
		name:        "SMS without text",
		frame:       []byte("*HQ,5226073533,SMS,#"),
		id:          "5226073533",
		unsupported: "SMS frame without text",
	}, {
		name:  "bare V0 heartbeat",
		frame: []byte("*HQ,135790246811220,V0#"),
		id:    "135790246811220",
		noPos: true,
		reply: "*HQ,135790246811220,V0#",
	}, {
		name:        "V0 heartbeat with fields",
		frame:       []byte("*HQ,135790246811220,V0,100#"),
		id:          "135790246811220",
		unsupported: "V0 heartbeat with unknown fields",
	}, {
		name:        "HTBT with a field that is no battery level",
		frame:       []byte("*HQ,135790246811220,HTBT,x#"),
		id:          "135790246811220",
		unsupported: "HTBT heartbeat with unknown fields",
	}, {
		name:  "V5",
		frame: []byte(textV5),
		id:    "9180271064",
		fix:   &fix{time: "2019-12-05 09:12:33", valid: false, lat: 23.814853, lon: 90.355503},
		attrs: model.Attributes{"status": int64(0xFFFFBBFF), "ignition": false,
			"io1": "470", "io2": "01", "io3": "21019", "io4": "2033", "io5": "2921283"},
		absent: []string{"alarm"},
	}, {
		name:  "V6 with a power cut and a trailing comma",
		frame: []byte(textV6),
		id:    "3177718238",
		fix:   &fix{time: "2022-12-15 00:29:26", valid: false, lat: 35.240147, lon: -97.554737},
		attrs: model.Attributes{"status": int64(0xFFF7FBFF), "alarm": "powerCut", "ignition": false,
			"io1": "310", "io2": "260", "io3": "32936", "io4": "13641", "io5": "8944501311217563382F"},
		absent: []string{"io6"},
	}, {
		name:  "V1 with coordinates without a point",
		frame: []byte("*HQ,5905101893,V1,105759,A,37573392,S,145037022,E,000.00,173,280122,FF7FFBFF,,,9059e2c,8232,4#"),
		id:    "5905101893",
		fix:   &fix{time: "2022-01-28 10:57:59", valid: true, lat: -37.955653, lon: 145.061703, course: 173},
		attrs: model.Attributes{"status": int64(0xFF7FFBFF), "ignition": false,
			"io1": "", "io2": "", "io3": "9059e2c", "io4": "8232", "io5": "4"},
		ack: "*HQ,5905101893,V4,V1,20240102030405#",
	}, {
		name:  "VI1 address request",
		frame: []byte("*HQ,353505221264507,VI1,075146,0,5238.25900,N,00507.33429,E,0.54,0,250917,FFFFFFFF,cc,28,  db,d75b#"),
		id:    "353505221264507",
		fix:   &fix{time: "2017-09-25 07:51:46", valid: true, lat: 52.63765, lon: 5.122238, speed: 0.54},
		attrs: model.Attributes{"ignition": true, "io1": "cc", "io2": "28", "io3": "db", "io4": "d75b"},
	}, {
		name:   "V4 answer with a password and an SOS",
		frame:  []byte("*TH,2020916012,V4,S1,OK,pass_word,130305,050316,A,2212.8745,N,11346.6574,E,14.28,028,220902,FFFFFBFD#"),
		id:     "2020916012",
		fix:    &fix{time: "2002-09-22 05:03:16", valid: true, lat: 22.214575, lon: 113.777623, speed: 14.28, course: 28},
		result: "S1,OK,pass_word,130305",
		attrs:  model.Attributes{"result": "S1,OK,pass_word,130305", "alarm": "sos", "ignition": false},
	}, {
		name:   "V4 answer without text",
		frame:  []byte("*TH,2020916012,V4,S17,130305,050316,A,2212.8745,N,11346.6574,E,14.28,028,220902,FFFFFBFF#"),
		id:     "2020916012",
		fix:    &fix{time: "2002-09-22 05:03:16", valid: true, lat: 22.214575, lon: 113.777623, speed: 14.28, course: 28},
		result: "S17,130305",
		attrs:  model.Attributes{"result": "S17,130305"},
	}, {
		name:  "V19 without a fix flag",
		frame: []byte("*HQ,4109179024,V19,181519,V,3853.2587,S,06205.9175,W,000.00,000,090217,,5492932630888,8954315265044716555?,FFFFFBFF#"),
		id:    "4109179024",
		fix:   &fix{time: "2017-02-09 18:15:19", valid: false, lat: -(38 + 53.2587/60), lon: -(62 + 5.9175/60)},
		attrs: model.Attributes{"status": int64(0xFFFFFBFF), "ignition": false},
	}, {
		name:  "NBR with negative signal strengths",
		frame: []byte("*HQ,7401004662,NBR,160453,234,10,0,2,21580,27766,-67,21580,27766,-67,291019,FFFFFBFF,6#"),
		id:    "7401004662",
		at:    "2019-10-29 16:04:53",
		attrs: model.Attributes{"status": int64(0xFFFFFBFF), "ignition": false},
		ack:   "*HQ,7401004662,V4,NBR,20240102030405#",
		network: network([]map[string]any{
			cell(234, 10, 21580, 27766, intp(-67)), cell(234, 10, 21580, 27766, intp(-67)),
		}),
	}, {
		name:  "LINK with satellites",
		frame: []byte("*HQ,1600068860,LINK,112137,20,8,67,0,0,081116,FFFFFBFF#"),
		id:    "1600068860",
		at:    "2016-11-08 11:21:37",
		attrs: model.Attributes{"rssi": 20, "sat": 8, "batteryLevel": 67, "steps": 0, "turnovers": 0,
			"status": int64(0xFFFFFBFF), "ignition": false},
	}, {
		name:    "V3 with one cell",
		frame:   []byte("*HQ,353111080001055,V3,044855,28403,01,001450,011473,158,-62,0292,0,X,030817,FFFFFBFF#"),
		id:      "353111080001055",
		at:      "2017-08-03 04:48:55",
		attrs:   model.Attributes{"battery": 0x292, "status": int64(0xFFFFFBFF)},
		network: network([]map[string]any{cell(284, 3, 1450, 11473, nil)}),
	}, {
		name:  "binary 45 bytes, battery step 6",
		frame: prototest.Unhex(t, bin45b),
		id:    "9180271180",
		fix:   &fix{time: "2019-12-05 08:50:24", valid: true, lat: 23.83572, lon: 90.416263, course: 1},
		attrs: model.Attributes{"batteryLevel": 100, "status": int64(0xFFFFBBFF), "ignition": false},
	}, {
		name:   "binary 46 bytes",
		frame:  prototest.Unhex(t, bin46),
		id:     "2130510938",
		fix:    &fix{time: "2017-03-10 01:27:17", valid: true, lat: 5.334108, lon: 100.477162, speed: 3, course: 85},
		attrs:  model.Attributes{"status": int64(0xFFFFDFFF), "ignition": true},
		absent: []string{"batteryLevel", "alarm"},
	}, {
		name:   "binary 48 bytes",
		frame:  prototest.Unhex(t, bin48),
		id:     "9713050072",
		fix:    &fix{time: "2015-10-16 05:20:19", valid: true, lat: 33.558347, lon: -7.534495},
		attrs:  model.Attributes{"status": int64(0xEFFFFBFF), "ignition": false},
		absent: []string{"batteryLevel", "alarm"},
	}})
}
