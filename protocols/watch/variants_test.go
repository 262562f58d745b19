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

func wifiNetwork(cells []map[string]any, aps ...map[string]any) map[string]any {
	n := map[string]any{"radioType": "gsm", "considerIp": false, "wifiAccessPoints": aps}
	if cells != nil {
		n["cellTowers"] = cells
	}
	return n
}

// TestDecodeVariants covers other real frames of Traccar's watch tests and
// public captures: Wi-Fi lists, alarm bits, health readings, command
// answers, types fleetd does not decode.
func TestDecodeVariants(t *testing.T) {
	cases := map[string]want{
		"[3G*2104326058*00E9*UD_LTE,300621,135101,A,32.162652,N,34.888748,E,30.84,265.158,65.621,18,100,83,0,0,00000000,1,1,425,01,10223,8012811,100,3,ES4104,22:74:1d:39:64:ff,-46,metropoline-wifi,a8:3f:a1:e0:66:ba,-89,Egged.co.il,00:0c:42:51:cf:cd,-81,1.7055488]": {
			id: "2104326058", time: time.Date(2021, 6, 30, 13, 51, 1, 0, time.UTC), valid: true,
			lat: 32.162652, lon: 34.888748, speed: 30.84 / 1.852, course: 265.158, altitude: 65.621,
			attrs: model.Attributes{"sat": 18, "rssi": 100, "batteryLevel": 83, "steps": 0},
			network: wifiNetwork([]map[string]any{cellTower(425, 1, 10223, 8012811, 100)},
				wifi("22:74:1d:39:64:ff", -46), wifi("a8:3f:a1:e0:66:ba", -89), wifi("00:0c:42:51:cf:cd", -81)),
			maker: "3G",
		},
		// UD_WCDMA without a fix: cells and Wi-Fi only, the placeholder
		// speed (22.0) and altitude (-1) are not kept.
		"[3G*0304187088*0100*UD_WCDMA,100720,094202,V,0.0,N,0.0,E,22.0,0,-1,21,75,92,0,0,00000000,1,1,425,01,10192,1282125,75,5,Inet,04:f0:21:46:1f:57,-54,iNetSecurity,00:1e:42:25:2f:3e,-71,Gilad,58:d5:6e:9d:1b:af,-80,weekend,14:ae:db:cb:99:25,-82,advancemed1,04:f0:21:4c:c8:3e,-89,0.0]": {
			id: "0304187088", time: time.Date(2020, 7, 10, 9, 42, 2, 0, time.UTC), outdated: true,
			attrs: model.Attributes{"sat": 21, "rssi": 75, "batteryLevel": 92, "steps": 0},
			network: wifiNetwork([]map[string]any{cellTower(425, 1, 10192, 1282125, 75)},
				wifi("04:f0:21:46:1f:57", -54), wifi("00:1e:42:25:2f:3e", -71), wifi("58:d5:6e:9d:1b:af", -80),
				wifi("14:ae:db:cb:99:25", -82), wifi("04:f0:21:4c:c8:3e", -89)),
			maker: "3G",
		},
		// Wi-Fi only.
		"[3G*8800000015*00DD*UD,010120,025946,V,0.0,N,0.0,E,22.0,0,-1,0,100,98,0,0,00000000,0,5,eduroam,f4:db:e6:d2:a8:00,-53,eduroam,f4:db:e6:da:d0:80,-79,eduroam,78:0c:f0:24:f9:80,-82,Lions,b0:be:76:0a:05:9a,-82,tubs-guest,f4:db:e6:d2:a8:01,-53,0.0]": {
			id: "8800000015", time: time.Date(2020, 1, 1, 2, 59, 46, 0, time.UTC), outdated: true,
			attrs: model.Attributes{"sat": 0, "rssi": 100, "batteryLevel": 98, "steps": 0},
			network: wifiNetwork(nil, wifi("f4:db:e6:d2:a8:00", -53), wifi("f4:db:e6:da:d0:80", -79),
				wifi("78:0c:f0:24:f9:80", -82), wifi("b0:be:76:0a:05:9a", -82), wifi("f4:db:e6:d2:a8:01", -53)),
			maker: "3G",
		},
		"[SG*9159059735*0066*UD2,230322,082138,A,59.55285,N,016.66185,E,0.0,000,26,14,80,70,0,50,00000000,1,1,240,7,34505,80806406,,00]": {
			id: "9159059735", time: time.Date(2022, 3, 23, 8, 21, 38, 0, time.UTC), valid: true,
			lat: 59.55285, lon: 16.66185, altitude: 26,
			attrs: model.Attributes{"sat": 14, "rssi": 80, "batteryLevel": 70, "steps": 0},
			network: gsm(map[string]any{"mobileCountryCode": 240, "mobileNetworkCode": 7,
				"locationAreaCode": 34505, "cellId": 80806406}),
			maker: "SG",
		},
		"[SG*9059056143*0053*UD,251021,223408,A,41.46500,N,081.53128,W,0.926,000,0,00,70,70,0,50,00000000,0,1,,,,00]": {
			id: "9059056143", time: time.Date(2021, 10, 25, 22, 34, 8, 0, time.UTC), valid: true,
			lat: 41.465, lon: -81.53128, speed: 0.926 / 1.852,
			attrs: model.Attributes{"sat": 0, "rssi": 70, "batteryLevel": 70, "steps": 0},
			maker: "SG",
		},
		// Bit 3 (worn) is a state, not an alarm; no cells, no Wi-Fi.
		"[3G*9031853319*004E*UD2,220322,055105,A,22.761162,N,114.360192,E,0,0,47,14,100,64,0,0,00000008,0,0]": {
			id: "9031853319", time: time.Date(2022, 3, 22, 5, 51, 5, 0, time.UTC), valid: true,
			lat: 22.761162, lon: 114.360192, altitude: 47,
			attrs: model.Attributes{"sat": 14, "rssi": 100, "batteryLevel": 64, "steps": 0},
			maker: "3G",
		},
		// WT (a weather request) with a stale position (V with coordinates):
		// kept as not valid; bit 4 says the watch is still. Not answered.
		"[3G*6005412902*011F*WT,170517,133811,V,18.512200,N,73.7750283,E,0.00,0.0,0.0,0,92,82,4262,0,00000010,2,1,404,22,10125,8301,141,10125,13921,122,5,Skynet,28:c6:8e:be:87:c0,-60,Intel Wi-Fi,4c:60:de:32:3d:38,-70,Nirvanic-2,40:e3:d6:4a:d9:c2,-73,A4-Guest,40:e3:d6:4a:d9:c4,-73,A4Idatix,40:e3:d6:4a:d9:c3,-73,13.8]": {
			id: "6005412902", time: time.Date(2017, 5, 17, 13, 38, 11, 0, time.UTC),
			lat: 18.5122, lon: 73.7750283,
			attrs: model.Attributes{"sat": 0, "rssi": 92, "batteryLevel": 82, "steps": 4262, "motion": false},
			network: wifiNetwork([]map[string]any{cellTower(404, 22, 10125, 8301, 141), cellTower(404, 22, 10125, 13921, 122)},
				wifi("28:c6:8e:be:87:c0", -60), wifi("4c:60:de:32:3d:38", -70), wifi("40:e3:d6:4a:d9:c2", -73),
				wifi("40:e3:d6:4a:d9:c4", -73), wifi("40:e3:d6:4a:d9:c3", -73)),
			maker: "3G",
		},
		// Bit 20: the watch was taken off; no fix.
		"[3G*358839237678820*0122*ALCUSTOMER1,251120,081821,V,0.0,N,0.0,E,2.58,317.462,35.147,14,100,2,11089,0,00100008,1,1,460,01,42308,101992452,100,5,shizhou1,44:56:e2:03:ea:2a,-69,FART3,30:0d:9e:bb:fa:4d,-70,ZKY-A209,88:c3:97:c1:f4:7f,-73,ChinaNet-HNeD,e8:84:c6:21:7c:dc,-77,,30:45:96:10:14:5d,-79,1.2035439]": {
			id: "358839237678820", ack: "[3G*358839237678820*0002*AL]", time: time.Date(2020, 11, 25, 8, 18, 21, 0, time.UTC), outdated: true,
			attrs: model.Attributes{"sat": 14, "rssi": 100, "batteryLevel": 2, "steps": 11089, "alarm": "removing"},
			network: wifiNetwork([]map[string]any{cellTower(460, 1, 42308, 101992452, 100)},
				wifi("44:56:e2:03:ea:2a", -69), wifi("30:0d:9e:bb:fa:4d", -70), wifi("88:c3:97:c1:f4:7f", -73),
				wifi("e8:84:c6:21:7c:dc", -77), wifi("30:45:96:10:14:5d", -79)),
			maker: "3G",
		},
		// Bit 21: a fall, while the motion sensor finds the watch still (bit 4).
		"[3G*8308373902*0080*AL,230817,095346,A,47.083950,N,15.4821850,E,7.60,273.8,0.0,4,15,44,0,0,00200010,2,255,232,1,7605,42530,118,7605,58036,119,0,65.8]": {
			id: "8308373902", ack: "[3G*8308373902*0002*AL]", time: time.Date(2017, 8, 23, 9, 53, 46, 0, time.UTC), valid: true,
			lat: 47.08395, lon: 15.482185, speed: 7.6 / 1.852, course: 273.8,
			attrs:   model.Attributes{"sat": 4, "rssi": 15, "batteryLevel": 44, "steps": 0, "alarm": "fallDown", "motion": false},
			network: gsm(cellTower(232, 1, 7605, 42530, 118), cellTower(232, 1, 7605, 58036, 119)),
			maker:   "3G",
		},
		// Bit 16: SOS, located by seven cells.
		"[3G*8809008845*00C0*AL,271219,094744,V,00.000000,N, 0.0000000,E,0.00,0.0,0.0,0,100,81,0,0,00010000,7,0,460,0,9336,3981,141,9336,3912,141,9336,3982,140,9765,4233,134,9765,4071,134,9765,4321,134,9336,4353,132,0,0.0]": {
			id: "8809008845", ack: "[3G*8809008845*0002*AL]", time: time.Date(2019, 12, 27, 9, 47, 44, 0, time.UTC), outdated: true,
			attrs: model.Attributes{"sat": 0, "rssi": 100, "batteryLevel": 81, "steps": 0, "alarm": "sos"},
			network: gsm(cellTower(460, 0, 9336, 3981, 141), cellTower(460, 0, 9336, 3912, 141), cellTower(460, 0, 9336, 3982, 140),
				cellTower(460, 0, 9765, 4233, 134), cellTower(460, 0, 9765, 4071, 134), cellTower(460, 0, 9765, 4321, 134),
				cellTower(460, 0, 9336, 4353, 132)),
			maker: "3G",
		},
		// A 16-bit status word with only the low battery state: the AL is a
		// low battery alarm.
		"[SG*8800000015*0087*AL,220414,134652,A,22.571707,N,113.8613968,E,0.1,0.0,100,7,60,90,1000,50,0001,4,1,460,0,9360,4082,131,9360,4092,148,9360,4091,143,9360,4153,141]": {
			id: "8800000015", ack: "[SG*8800000015*0002*AL]", time: time.Date(2014, 4, 22, 13, 46, 52, 0, time.UTC), valid: true,
			lat: 22.57171, lon: 113.8614, speed: 0.1 / 1.852, altitude: 100,
			attrs: model.Attributes{"sat": 7, "rssi": 60, "batteryLevel": 90, "steps": 1000, "alarm": "lowBattery"},
			network: gsm(cellTower(460, 0, 9360, 4082, 131), cellTower(460, 0, 9360, 4092, 148),
				cellTower(460, 0, 9360, 4091, 143), cellTower(460, 0, 9360, 4153, 141)),
			maker: "SG",
		},
		// Health: a BLOOD reading without a heart rate, heart rates, a
		// "no reading" heart rate, a temperature.
		"[ZJ*357653059860416*0007*000c*BLOOD,109,68]": {
			id: "357653059860416", attrs: model.Attributes{"pressureHigh": 109, "pressureLow": 68}, maker: "ZJ", hasIndex: true,
		},
		"[3G*6005412902*0008*heart,71]":       {id: "6005412902", attrs: model.Attributes{"heartRate": 71}, maker: "3G"},
		"[3G*6005412902*0007*heart,0]":        {id: "6005412902", noPos: true, maker: "3G"},
		"[ZJ*5678901234*0001*0009*TEMP,36.5]": {id: "5678901234", attrs: model.Attributes{"temp1": 36.5}, maker: "ZJ", hasIndex: true},
		"[3G*2104326058*0006*INIT]": {
			id: "2104326058", reply: "[3G*2104326058*0006*INIT,1]", noPos: true, maker: "3G",
		},
		// Command answers.
		"[3G*2104326058*0002*CR]":       {id: "2104326058", commandResult: "CR", noPos: true, maker: "3G"},
		"[3G*8308406279*0008*rcapture]": {id: "8308406279", commandResult: "rcapture", noPos: true, maker: "3G"},
		"[3G*8800000015*0028*VERNO,G29_BASE_V1.00_2014.04.23_17.46.49]": {
			id: "8800000015", commandResult: "VERNO,G29_BASE_V1.00_2014.04.23_17.46.49", noPos: true, maker: "3G",
		},
		// A picture (the makers' example of an img frame): the JPEG,
		// unescaped, is the file of a position at the last known place.
		"[3G*8800000015*0019*img,5,160429110950,\xff\xd8\xff\xe0}\x03\xff\xd9]": {id: "8800000015", maker: "3G", attrs: model.Attributes{},
			media: &model.Media{Key: "image", Ext: "jpg", Type: "image/jpeg", Data: []byte("\xff\xd8\xff\xe0]\xff\xd9")}},
		// Not decoded: "bump to make friends" (PP), which fleetd cannot answer.
		"[3G*8800000015*00D4*PP,091046,180916,085033,A,22.570193,N,113.8621950,E,0.48,60.3,0.0,9,100,100,0,0,00000010,7,255,460,1,9529,21809,160,9529,21405,133,9529,63555,133,9529,63554,124,9529,21242,119,9529,21151,118,9529,63574,116,0,23.2]": {
			id: "8800000015", unsupported: true, noPos: true, maker: "3G",
		},
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
		// Voice frames without audio or with a broken chunk header.
		"[CS*1234567890*0002*TK]",
		"[CS*1234567890*0003*TK,]",
		"[ZJ*1234567890*0001*0008*JXTK,0,x]",
		"[ZJ*1234567890*0001*0010*JXTK,0,x,a,b,data]",
		"[ZJ*1234567890*0001*0010*JXTK,0,x,3,2,data]",
		"[ZJ*1234567890*0001*0010*JXTK,0,x,0,2,data]",
		"[ZJ*1234567890*0001*0010*JXTK,0,,1,2,data]",
		// Health values that are not numbers.
		"[3G*6005412902*0008*heart,x1]",
		"[3G*4700609403*0013*bphrt,120,7x9,73,,,,]",
		"[3G*2104326058*000E*btemp2,1,3e1]",
	)
}

// TestDecodeMalformedAlarm: an alarm whose location data cannot be read is
// still an alarm, kept at the last known location and then answered, or the
// watch would repeat it forever.
func TestDecodeMalformedAlarm(t *testing.T) {
	checkDecode(t, "[3G*8800000015*0005*AL,xx]", want{
		id: "8800000015", ack: "[3G*8800000015*0002*AL]", attrs: model.Attributes{"alarm": "general"}, maker: "3G",
	})
}
