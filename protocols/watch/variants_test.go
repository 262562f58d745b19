package watch

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func wifi(mac string, rssi int) map[string]any {
	return map[string]any{"macAddress": mac, "signalStrength": rssi}
}

// TestDecodeVariants covers other real frames of Traccar's watch tests:
// Wi-Fi lists, alarm bits, health readings, odd number formats.
func TestDecodeVariants(t *testing.T) {
	cases := map[string]want{
		"[3G*2104326058*00E9*UD_LTE,300621,135101,A,32.162652,N,34.888748,E,30.84,265.158,65.621,18,100,83,0,0,00000000,1,1,425,01,10223,8012811,100,3,ES4104,22:74:1d:39:64:ff,-46,metropoline-wifi,a8:3f:a1:e0:66:ba,-89,Egged.co.il,00:0c:42:51:cf:cd,-81,1.7055488]": {
			id: "2104326058", time: time.Date(2021, 6, 30, 13, 51, 1, 0, time.UTC), valid: true,
			lat: 32.162652, lon: 34.888748, speed: 30.84 / 1.852, course: 265.158, altitude: 65.621,
			attrs: model.Attributes{"sat": 18, "rssi": 100, "batteryLevel": 83, "steps": 0},
			network: map[string]any{"radioType": "gsm", "considerIp": false,
				"cellTowers": []map[string]any{cellTower(425, 1, 10223, 8012811, 100)},
				"wifiAccessPoints": []map[string]any{wifi("22:74:1d:39:64:ff", -46),
					wifi("a8:3f:a1:e0:66:ba", -89), wifi("00:0c:42:51:cf:cd", -81)}},
			state: session{"3G", false},
		},
		"[SG*9159059735*0066*UD2,230322,082138,A,59.55285,N,016.66185,E,0.0,000,26,14,80,70,0,50,00000000,1,1,240,7,34505,80806406,,00]": {
			id: "9159059735", time: time.Date(2022, 3, 23, 8, 21, 38, 0, time.UTC), valid: true,
			lat: 59.55285, lon: 16.66185, altitude: 26,
			attrs: model.Attributes{"sat": 14, "rssi": 80, "batteryLevel": 70, "steps": 0},
			network: gsm(map[string]any{"mobileCountryCode": 240, "mobileNetworkCode": 7,
				"locationAreaCode": 34505, "cellId": 80806406}),
			state: session{"SG", false},
		},
		"[SG*9059056143*0053*UD,251021,223408,A,41.46500,N,081.53128,W,0.926,000,0,00,70,70,0,50,00000000,0,1,,,,00]": {
			id: "9059056143", time: time.Date(2021, 10, 25, 22, 34, 8, 0, time.UTC), valid: true,
			lat: 41.465, lon: -81.53128, speed: 0.926 / 1.852,
			attrs: model.Attributes{"sat": 0, "rssi": 70, "batteryLevel": 70, "steps": 0},
			state: session{"SG", false},
		},
		"[3G*358839237678820*0122*ALCUSTOMER1,251120,081821,V,0.0,N,0.0,E,2.58,317.462,35.147,14,100,2,11089,0,00100008,1,1,460,01,42308,101992452,100,0,1.2035439]": {
			id: "358839237678820", ack: "[3G*358839237678820*0002*AL]", time: time.Date(2020, 11, 25, 8, 18, 21, 0, time.UTC),
			speed: 2.58 / 1.852, course: 317.462, altitude: 35.147,
			attrs:   model.Attributes{"sat": 14, "rssi": 100, "batteryLevel": 2, "steps": 11089, "alarm": "removing"},
			network: gsm(cellTower(460, 1, 42308, 101992452, 100)),
			state:   session{"3G", false},
		},
		"[3G*8308373902*0080*AL,230817,095346,A,47.083950,N,15.4821850,E,7.60,273.8,0.0,4,15,44,0,0,00200010,2,255,232,1,7605,42530,118,7605,58036,119,0,65.8]": {
			id: "8308373902", ack: "[3G*8308373902*0002*AL]", time: time.Date(2017, 8, 23, 9, 53, 46, 0, time.UTC), valid: true,
			lat: 47.08395, lon: 15.482185, speed: 7.6 / 1.852, course: 273.8,
			attrs:   model.Attributes{"sat": 4, "rssi": 15, "batteryLevel": 44, "steps": 0, "alarm": "fallDown", "motion": true},
			network: gsm(cellTower(232, 1, 7605, 42530, 118), cellTower(232, 1, 7605, 58036, 119)),
			state:   session{"3G", false},
		},
		"[3G*8809008845*0045*AL,271219,094744,V,00.000000,N, 0.0000000,E,0.00,0.0,0.0,0,100,81,0,0,00000000,0,0]": {
			id: "8809008845", ack: "[3G*8809008845*0002*AL]", time: time.Date(2019, 12, 27, 9, 47, 44, 0, time.UTC),
			attrs: model.Attributes{"sat": 0, "rssi": 100, "batteryLevel": 81, "steps": 0, "alarm": "general"},
			state: session{"3G", false},
		},
		"[3G*4700609403*0013*bphrt,120,79,73,,,,]": {
			id: "4700609403", attrs: model.Attributes{"pressureHigh": "120", "pressureLow": "79", "heartRate": 73},
			state: session{"3G", false},
		},
		"[ZJ*357653059860416*0007*000c*BLOOD,109,68]": {
			id: "357653059860416", attrs: model.Attributes{"pressureHigh": "109", "pressureLow": "68"},
			state: session{"ZJ", true},
		},
		"[3G*2104326058*000E*btemp2,1,35.29]": {
			id: "2104326058", attrs: model.Attributes{"temp1": 35.29}, state: session{"3G", false},
		},
		"[3G*2104326058*000E*oxygen,1,97]": {
			id: "2104326058", attrs: model.Attributes{"bloodOxygen": 97}, state: session{"3G", false},
		},
		"[3G*2104326058*0006*INIT]": {
			id: "2104326058", reply: "[3G*2104326058*0006*INIT,1]", noPos: true, state: session{"3G", false},
		},
		"[3G*2104326058*0003*CR]":                                    {id: "2104326058", noPos: true, state: session{"3G", false}},
		"[CS*1234567890*000e*TK,#!AMR}\x01}\x02}\x03}\x04}\x05\xff]": {id: "1234567890", noPos: true, state: session{"CS", false}},
	}
	for frame, w := range cases {
		t.Run(frame[:min(len(frame), 30)], func(t *testing.T) { checkDecode(t, frame, w) })
	}
}

func TestUnescape(t *testing.T) {
	got := unescape([]byte("TK,#!AMR}\x01}\x02}\x03}\x04}\x05\xff}\x09"))
	if want := "TK,#!AMR}[],*\xff}\x09"; string(got) != want {
		t.Errorf("unescape = %q, want %q", got, want)
	}
}

func TestDecodeErrors(t *testing.T) {
	prototest.DecodeRejects(t, testProtocol().Decode, nil,
		"",
		"[SG*8800000015*0002*LK",
		"[S*8800000015*0002*LK]",
		"[SG*88000*00015*0002*LK]",
		"[SG*8800000015*0087*UD,220414,134652,A,22.571707,N,113.8613968,E,0.1]",
		"[SG*8800000015*0087*UD,221314,134652,A,22.571707,N,113.8613968,E,0.1,0.0,100,7,60,90,1000,50,0000]",
		"[SG*8800000015*0087*UD,220414,134652,A,95.0,N,113.8613968,E,0.1,0.0,100,7,60,90,1000,50,0000]",
		"[SG*8800000015*0087*UD,220414,134652,A,22.5,N,113.8,E,1e3,0.0,100,7,60,90,1000,50,0000]",
		"[SG*8800000015*0087*UD,220414,134652,A,22.5,N,113.8,E,1,0.0,100,7,60,90,1000,50,zz]",
	)
	// A malformed alarm is still answered, or the watch repeats it forever.
	res, err := testProtocol().Decode(nil, []byte("[3G*8800000015*0005*AL,xx]"))
	if err != nil || string(res.Ack) != "[3G*8800000015*0002*AL]" || len(res.Positions) != 0 {
		t.Errorf("malformed AL = %+v, %v", res, err)
	}
}
