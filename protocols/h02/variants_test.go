package h02

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// TestDecodeVariants covers the other frame types of Traccar's H02 decoder
// tests (real device frames).
func TestDecodeVariants(t *testing.T) {
	runDecodeCases(t, []decodeCase{{
		name:   "command answer",
		frame:  []byte("*TH,2020916012,V4,S20,DONE,130305,050316,A,2212.8745,N,11346.6574,E,14.28,028,220902,F7FFFBFF#"),
		id:     "2020916012",
		fix:    &fix{time: "2002-09-22 05:03:16", valid: true, lat: 22.214575, lon: 113.777623, speed: 14.28, course: 28},
		attrs:  model.Attributes{"result": "S20,DONE,130305"},
		result: "S20,DONE,130305",
	}, {
		name:  "empty validity is invalid",
		frame: []byte("*HQ,355488020119695,V1,050418,,2827.61232,N,07703.84822,E,0.00,0,031015,FFFEFBFF#"),
		id:    "355488020119695",
		fix:   &fix{time: "2015-10-03 05:04:18", valid: false, lat: 28.46021, lon: 77.06414},
		ack:   "*HQ,355488020119695,V4,V1,20240102030405#",
	}, {
		name:  "V2 with a coding scheme for validity",
		frame: []byte("*HQ,353505221264507,V2,100220,0,5238.26259,N,00507.33983,E,0.25,0,280917,FFFFFFFF,cc,28,  db,d75b#"),
		id:    "353505221264507",
		fix:   &fix{time: "2017-09-28 10:02:20", valid: true, lat: 52.637710, lon: 5.122331, speed: 0.25},
		attrs: model.Attributes{"io1": "cc", "io3": "db", "io4": "d75b"},
	}, {
		name:    "odometer, temperature, fuel, altitude, cell",
		frame:   []byte("*HQ,2130510938,V1,012632,A,0520.0663,N,10028.6324,E,0.286,023,100317,FFFFDFFF,69129336,0,100.0,18,5141,5A20#"),
		id:      "2130510938",
		fix:     &fix{time: "2017-03-10 01:26:32", valid: true, lat: 5.334438, lon: 100.477207, speed: 0.286, course: 23},
		attrs:   model.Attributes{"odometer": 69129336, "temp1": 0, "fuel": 100.0},
		ack:     "*HQ,2130510938,V4,V1,20240102030405#",
		network: network([]map[string]any{cell(-1, 0, 0x5141, 0x5A20, nil)}),
	}, {
		name:  "battery before the date, power cut",
		frame: []byte("*HQ,4210209006,V1,054048,A,2828.2297,N,07733.4332,E,000.5,047,4,080918,EEE7FBDF,4261193,0#"),
		id:    "4210209006",
		fix:   &fix{time: "2018-09-08 05:40:48", valid: true, lat: 28.470495, lon: 77.55722, speed: 0.5, course: 47},
		attrs: model.Attributes{"alarm": "powerCut", "io1": "4261193", "io2": "0"},
		ack:   "*HQ,4210209006,V4,V1,20240102030405#",
	}, {
		name:  "V19 with SIM fields",
		frame: []byte("*HQ,4209951296,V19,214452,A,5201.0178,N,01830.5029,E,000.00,000,200417,,195.63.13.195,89480610500392633029,BFFFFBFF#"),
		id:    "4209951296",
		fix:   &fix{time: "2017-04-20 21:44:52", valid: true, lat: 52.016963, lon: 18.508382},
		attrs: model.Attributes{"status": int64(0xBFFFFBFF)},
	}, {
		name:  "no time or date uses the server clock",
		frame: []byte("*HQ,353505220873067,V1,,V,4605.75732,N,01430.73863,E,0.00,0,,FFFFFFEF,125,194,  64,d3#"),
		id:    "353505220873067",
		fix:   &fix{time: "2024-01-02 03:04:05", valid: false, lat: 46.095955, lon: 14.512311},
		ack:   "*HQ,353505220873067,V4,V1,20240102030405#",
	}, {
		name:  "degrees with one digit",
		frame: []byte("*HQ,354188045498669,V1,195200,A,701.8915,S,3450.3399,W,0.00,205.70,050213,ffffffff,000243,000000,000000#"),
		id:    "354188045498669",
		fix:   &fix{time: "2013-02-05 19:52:00", valid: true, lat: -7.031525, lon: -34.838998, course: 205.7},
		ack:   "*HQ,354188045498669,V4,V1,20240102030405#",
	}, {
		name:  "trailing line break and other maker code",
		frame: []byte("*TH,2020916012,V1,050316,A,2212.8745,N,11346.6574,E,14.28,028,220902,FFFFFBFF#\r\n"),
		id:    "2020916012",
		fix:   &fix{time: "2002-09-22 05:03:16", valid: true, lat: 22.214575, lon: 113.777623, speed: 14.28, course: 28},
		ack:   "*HQ,2020916012,V4,V1,20240102030405#",
	}, {
		name:  "empty id gets no reply",
		frame: []byte("*HQ,,V1,173212,A,2225.78879,S,02829.19021,E,0.00,0,290418,FFFFFBFF#"),
		fix:   &fix{time: "2018-04-29 17:32:12", valid: true, lat: -22.429813, lon: 28.486504},
	}, {
		name:  "VP1 fix",
		frame: []byte("*hq,356327080425330,VP1,A,2702.7245,S,15251.9311,E,0.48,0.0000,080917#"),
		id:    "356327080425330",
		fix:   &fix{time: "2017-09-08 00:00:00", valid: true, lat: -27.045408, lon: 152.865518, speed: 0.48},
	}, {
		name:  "VP1 cells",
		frame: []byte("*hq,356327081001239,VP1,V,470,002,92,3565,0Y92,19433,30Y92,1340,29#"),
		id:    "356327081001239",
		network: network([]map[string]any{
			cell(470, 2, 92, 3565, intp(0)), cell(470, 2, 92, 19433, intp(30)), cell(470, 2, 92, 1340, intp(29)),
		}),
	}, {
		name:  "LINK",
		frame: []byte("*HQ,1700086468,LINK,180902,15,0,84,0,0,240517,FFFFFBFF#"),
		id:    "1700086468",
		attrs: model.Attributes{"rssi": 15, "sat": 0, "batteryLevel": 84, "steps": 0, "turnovers": 0},
	}, {
		name:  "V3",
		frame: []byte("*HQ,355488020882405,V3,095426,74001,04,010278,045142,128,-92,010278,026311,125,,010278,026582,125,,010278,028322,119,,02DD,0,X,090517,FFFFFBFF#"),
		id:    "355488020882405",
		attrs: model.Attributes{"battery": 0x2DD},
		network: network([]map[string]any{
			cell(740, 1, 10278, 45142, nil), cell(740, 1, 10278, 26311, nil),
			cell(740, 1, 10278, 26582, nil), cell(740, 1, 10278, 28322, nil),
		}),
	}, {
		name:  "binary with an 8-byte id",
		frame: prototest.Unhex(t, "2435248308419329301047591808172627335900074412294E024138FEFFFFFFFF01120064BA73005ECC"),
		id:    "352483084193293",
		fix:   &fix{time: "2017-08-18 10:47:59", valid: true, lat: 26.455598, lon: 74.687157, speed: 24, course: 138},
		attrs: model.Attributes{"status": int64(0xFEFFFFFF), "ignition": true},
	}, {
		name:        "XT is not decoded",
		frame:       []byte("*HQ,356327080425330,XT,1,100#"),
		id:          "356327080425330",
		unsupported: `message type "XT" not decoded`,
	}, {
		name:        "BS is not decoded",
		frame:       []byte("*HQ,356803210091319,BS,,2d4,a,1b63,1969,26,1b63,10b2,31,0,0,25,,ffffffff,60#"),
		id:          "356803210091319",
		unsupported: `message type "BS" not decoded`,
	}, {
		name:        "BASE is not decoded",
		frame:       []byte("*HQ,8401016597,BASE,152609,0,0,0,0,211014,FFFFFFFF#"),
		id:          "8401016597",
		unsupported: `message type "BASE" not decoded`,
	}, {
		name:        "no type",
		frame:       []byte("*HQ,4109198974,#"),
		id:          "4109198974",
		unsupported: `message type "" not decoded`,
	}, {
		name:        "no type field",
		frame:       []byte("*HQ,4109198974#"),
		id:          "4109198974",
		unsupported: "text frame without a message type",
	}, {
		name:        "V type of another layout",
		frame:       []byte("*HQ,4109198974,V9,1,2,3#"),
		id:          "4109198974",
		unsupported: "V9 frame of an unknown layout",
	}, {
		name:  "zero coordinates without hemispheres keep the status",
		frame: []byte("*HQ,353588020068342,V1,000000,V,0.0000,0,0.0000,0,0.00,0.00,000000,ffffffff,000106,000002,000203,004c87,16#"),
		id:    "353588020068342",
		at:    "2024-01-02 03:04:05",
		attrs: model.Attributes{"status": int64(0xFFFFFFFF), "ignition": true,
			"io1": "000106", "io2": "000002", "io3": "000203", "io4": "004c87", "io5": "16"},
		ack: "*HQ,353588020068342,V4,V1,20240102030405#",
	}, {
		name: "X frame", frame: append([]byte("X"), make([]byte, 31)...), unsupported: "X frame not decoded",
	}})
}

func TestDecodeErrors(t *testing.T) {
	prototest.DecodeRejects(t, testProtocol().Decode, nil,
		string(prototest.Unhex(t, "2441060116601245431311165035")),                                     // short binary
		string(prototest.Unhex(t, "24410601166012454313111650353130060043182a0e000000fffffbffff0024")), // binary bad BCD
		string(prototest.Unhex(t, "2441060116601245431313165035313006004318210e000000fffffbffff0024")), // binary month
		"*HQ,4109179024,NBR,103732,722,310,0,9,8106,32010,23,100217,FFFFFBFF#",                         // NBR count
		"*HQ,1700086468,LINK,180902,x,0,84,0,0,240517,FFFFFBFF#",                                       // LINK value
		"*HQ,4210051415,V1,164549,A,0956.3869,N,08406.7068,W,000.00,000,991399,FFFFFBFF#",              // V1 date
		"", // empty
	)
}
