package gt06

import (
	"encoding/hex"
	"reflect"
	"testing"
	"time"

	"github.com/fleetd/fleetd/protocols/prototest"
)

// Cell list packets (no fix) from Traccar's Gt06ProtocolDecoderTest.
const (
	lbs4GFrame    = "78786CA1110B0413093801CC01000025FC000000000618C10201000025FC000000000618C10201000025FC000000000618C10201000025FC000000000618C10201000025FC000000000618C10201000025FC000000000618C10201000025FC000000000618C10201FF0002000541D70D0A"
	wifi4GFrame   = "787880a2110b161010140136040000591200000000009d7c01020000591200000000009d7c01020000591200000000009d7c01020000591200000000009d7c01020000591200000000009d7c01020000591200000000009d7c01020000591200000000009d7c0102ff033c1e04ddc28aa6001801eb4039c90000000000000014db84730d0a"
	wifi4G2Frame  = "78787aa2110c0e06372c813601040000591200000000009d7c01040000591200000000009d7c01040000591200000000009d7c01040000591200000000009d7c01040000591200000000009d7c01040000591200000000009d7c01040000591200000000009d7c0104ff02001801eb4039d10000000000000004fabeb50d0a"
	wifi4G3Frame  = "7878A3A2110B0603201501CC010000254E000000000615F804000000254E000000000615F804000000254E000000000615F804000000254E000000000615F804000000254E000000000615F804000000254E000000000615F804000000254E000000000615F80400FF08F483CD4DF4C0D750BD5F8BC5CECFB0D59DAFB459CDA8574E8424C6CC50BD5F6C7E1CC9B0D59D8AA718C90087363040E0C83496727B4DE4C7002919670D0A"
	lbsWifiFrame  = "7878412c11030b011c1f013604cb8a00b17754cb8a00bef357cb8a00b73f5fcb8900b0e25fcb8900b6655fcb8a00b74960cb8a00b178620701001801eb40393800bbbde10d0a"
	lbsWifi2Frame = "7878412c11030b012629013604cb8a00b17757cb8a00b73f5bcb8a00b7495ecb8900b0e25fcb8a00b1b9620000000000ff0000000000ffff01001801eb40393e00c0e6340d0a"
	// lw4GFrame is the LW4G model's 0xA2 (length 0x40), a GPS + status
	// layout fleetd does not decode yet: it must get no answer.
	lw4GFrame = "787840a2180b0f0f3407cf00602cd208354064001c6a02dc650000698100000000095674c9114100002a04000100004b31000000000863829079286793020001a22a8f0d0a"
)

// Wi-Fi packets 0x69 and 0x17: the length byte is the access point count;
// no serial number, no CRC; BCD time.
const (
	wifiFrame3   = "787803691604130318491475905BD30E25001E10BBF7635D14759006E626560501CC0028660F213228660F1F2828660EA81E286610731428660F20140D0A"
	wifiFrame0   = "787800691710231108500200cc080c4e2fa5640c4e2fa66e0d0a"
	wifi17Frame0 = "787800171710231108290200cc080c4e2fa5640c4e2fa5640d0a"
	wifiFrame8   = "78780869170928113413ac9e17b30808514494fcf6e148596cb0ce2c67bd4a6eb0ce2c67bd4b0018e7d4333e55ec086be7f2df5fe48d8c94fc6657e48d8cb8f378510600cc0400d37a3d4600d37a3c5000d37a3b6400d376716400d305ac6400d393506e0d0a"
	wifi17Frame8 = "787808171709281135331491827b75594dc8d719a9708452cad719a9708550cad719a97086521491827b75574cac9e17b308085dc8d71939633947cad71939633a480700cc0400d37a3d5a00d37a3d5a00d37a3d5a00d37a3d5a00d37a3d5a00d37a3d5a00d37a3d5a0d0a"
)

const (
	lbsExtendFrame    = "78783b18100c0f1201010195271784005ab63617840002fa47178400ff8f4817840019f3491784005ab54b178400ff8e4c17840019f24cff0002012287c80d0a"
	lbsMultiple2Frame = "78783B2E10010D02020201CC00287D001F713E287D001F7231287D001E232D287D001F4018000000000000000000000000000000000000FF00020005B14B0D0A"
)

var cellFrames = []string{lbsExtendFrame, lbsMultiple2Frame, lbs4GFrame, wifi4GFrame, wifi4G2Frame, wifi4G3Frame, lbsWifiFrame, lbsWifi2Frame,
	wifiFrame3, wifiFrame0, wifi17Frame0, wifiFrame8, wifi17Frame8, rfidFrame}

type tower struct {
	lac    int
	cid    int64
	signal int
}

func seven(t tower) []tower { return []tower{t, t, t, t, t, t, t} }

type ap struct {
	mac    string
	signal int
}

func TestDecodeCellLists(t *testing.T) {
	tests := []struct {
		name, frame, time, radio string
		mcc, mnc                 int
		towers                   []tower
		wifi                     []ap
		serial                   string
		ack                      string // when not the standard answer
		crcBad                   bool
	}{
		{name: "lbs 4g 0xa1", frame: lbs4GFrame, time: "2017-11-04T19:09:56Z", radio: "lte", mcc: 460, mnc: 1,
			towers: seven(tower{9724, 102285570, -1}), serial: "0005"},
		// Wi-Fi signals are signed bytes (0xA6 = -90 dBm); the all-zero MAC is padding.
		{name: "wifi 4g 0xa2", frame: wifi4GFrame, time: "2017-11-22T16:16:20Z", radio: "lte", mcc: 310, mnc: 4,
			towers: seven(tower{22802, 10320897, -2}),
			wifi:   []ap{{"3c:1e:04:dd:c2:8a", -90}, {"00:18:01:eb:40:39", -55}}, serial: "14db"},
		// MCC 0x8136: bit 15 set, so a 2-byte MNC (0x0104 = 260).
		{name: "wifi 4g 0xa2 wide mnc", frame: wifi4G2Frame, time: "2017-12-14T06:55:44Z", radio: "lte", mcc: 310, mnc: 260,
			towers: seven(tower{22802, 10320897, -4}), wifi: []ap{{"00:18:01:eb:40:39", -47}}, serial: "04fa"},
		{name: "wifi 4g 0xa2 eight access points", frame: wifi4G3Frame, time: "2017-11-06T03:32:21Z", radio: "lte",
			mcc: 460, mnc: 1, towers: seven(tower{9550, 102103044, 0}),
			wifi: []ap{{"f4:83:cd:4d:f4:c0", -41}, {"50:bd:5f:8b:c5:ce", -49}, {"b0:d5:9d:af:b4:59", -51},
				{"a8:57:4e:84:24:c6", -52}, {"50:bd:5f:6c:7e:1c", -55}, {"b0:d5:9d:8a:a7:18", -55},
				{"00:87:36:30:40:e0", -56}, {"34:96:72:7b:4d:e4", -57}}, serial: "0029"},
		// 0x2C: 2-byte LAC, 3-byte cell id; the Wi-Fi signal is a magnitude.
		{name: "lbs wifi 0x2c", frame: lbsWifiFrame, time: "2017-03-11T01:28:31Z", radio: "gsm", mcc: 310, mnc: 4,
			towers: []tower{{52106, 45431, -84}, {52106, 48883, -87}, {52106, 46911, -95}, {52105, 45282, -95},
				{52105, 46693, -95}, {52106, 46921, -96}, {52106, 45432, -98}},
			wifi: []ap{{"00:18:01:eb:40:39", -56}}, serial: "00bb"},
		// Two empty cell slots (LAC 0) are left out.
		{name: "lbs wifi 0x2c five cells", frame: lbsWifi2Frame, time: "2017-03-11T01:38:41Z", radio: "gsm", mcc: 310, mnc: 4,
			towers: []tower{{52106, 45431, -87}, {52106, 46911, -91}, {52106, 46921, -94}, {52105, 45282, -95},
				{52106, 45497, -98}},
			wifi: []ap{{"00:18:01:eb:40:39", -62}}, serial: "00c0"},
		// 0x18 is laid out as 0x2C (here without access points), 0x2E as 0x28.
		{name: "lbs extend 0x18", frame: lbsExtendFrame, time: "2016-12-15T18:01:01Z", radio: "gsm", mcc: 405, mnc: 39,
			towers: []tower{{6020, 23222, -54}, {6020, 762, -71}, {6020, 65423, -72}, {6020, 6643, -73},
				{6020, 23221, -75}, {6020, 65422, -76}, {6020, 6642, -76}}, serial: "0122"},
		// Traccar's sample carries a wrong CRC.
		{name: "lbs multiple 0x2e", frame: lbsMultiple2Frame, time: "2016-01-13T02:02:02Z", radio: "gsm", mcc: 460, mnc: 0,
			towers: []tower{{10365, 8049, -62}, {10365, 8050, -49}, {10365, 7715, -45}, {10365, 8000, -24}},
			serial: "0005", crcBad: true},
		// Wi-Fi 0x69/0x17: 2-byte cell ids; signals are magnitudes. The
		// answer is 78 78 00, type, the BCD time, 0D 0A.
		{name: "wifi 0x69", frame: wifiFrame3, time: "2016-04-13T03:18:49Z", radio: "gsm", mcc: 460, mnc: 0,
			towers: []tower{{10342, 3873, -50}, {10342, 3871, -40}, {10342, 3752, -30}, {10342, 4211, -20}, {10342, 3872, -20}},
			wifi:   []ap{{"14:75:90:5b:d3:0e", -37}, {"00:1e:10:bb:f7:63", -93}, {"14:75:90:06:e6:26", -86}},
			ack:    "78780069" + "160413031849" + "0d0a"},
		{name: "wifi 0x69 cells only", frame: wifiFrame0, time: "2017-10-23T11:08:50Z", radio: "gsm", mcc: 204, mnc: 8,
			towers: []tower{{3150, 12197, -100}, {3150, 12198, -110}}, ack: "78780069" + "171023110850" + "0d0a"},
		{name: "wifi 0x17 cells only", frame: wifi17Frame0, time: "2017-10-23T11:08:29Z", radio: "gsm", mcc: 204, mnc: 8,
			towers: []tower{{3150, 12197, -100}, {3150, 12197, -100}}, ack: "78780017" + "171023110829" + "0d0a"},
		{name: "wifi 0x69 eight access points", frame: wifiFrame8, time: "2017-09-28T11:34:13Z", radio: "gsm", mcc: 204, mnc: 4,
			towers: []tower{{211, 31293, -70}, {211, 31292, -80}, {211, 31291, -100}, {211, 30321, -100}, {211, 1452, -100}, {211, 37712, -110}},
			wifi: []ap{{"ac:9e:17:b3:08:08", -81}, {"44:94:fc:f6:e1:48", -89}, {"6c:b0:ce:2c:67:bd", -74}, {"6e:b0:ce:2c:67:bd", -75},
				{"00:18:e7:d4:33:3e", -85}, {"ec:08:6b:e7:f2:df", -95}, {"e4:8d:8c:94:fc:66", -87}, {"e4:8d:8c:b8:f3:78", -81}},
			ack: "78780069" + "170928113413" + "0d0a"},
		{name: "wifi 0x17 eight access points", frame: wifi17Frame8, time: "2017-09-28T11:35:33Z", radio: "gsm", mcc: 204, mnc: 4,
			towers: seven(tower{211, 31293, -90}),
			wifi: []ap{{"14:91:82:7b:75:59", -77}, {"c8:d7:19:a9:70:84", -82}, {"ca:d7:19:a9:70:85", -80}, {"ca:d7:19:a9:70:86", -82},
				{"14:91:82:7b:75:57", -76}, {"ac:9e:17:b3:08:08", -93}, {"c8:d7:19:39:63:39", -71}, {"ca:d7:19:39:63:3a", -72}},
			ack: "78780017" + "170928113533" + "0d0a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			frame := prototest.Unhex(t, tt.frame)
			res, err := New().Decode(nil, frame)
			if err != nil {
				t.Fatal(err)
			}
			ack := tt.ack
			if ack == "" {
				ack = "787805" + hex.EncodeToString(frame[3:4]) + tt.serial +
					crcHex("05"+hex.EncodeToString(frame[3:4])+tt.serial) + "0d0a"
			}
			if got := hex.EncodeToString(res.Ack); got != ack || res.Reply != nil || res.ChecksumError != tt.crcBad {
				t.Errorf("Ack = %s Reply = %x crcBad %v, want Ack %s", got, res.Reply, res.ChecksumError, ack)
			}
			if len(res.Positions) != 1 {
				t.Fatalf("got %d positions", len(res.Positions))
			}
			p := res.Positions[0]
			want, _ := time.Parse(time.RFC3339, tt.time)
			if !p.Outdated || p.Valid || !p.DeviceTime.Equal(want) || !p.FixTime.IsZero() ||
				p.Latitude != 0 || p.Longitude != 0 {
				t.Errorf("position %+v, want outdated, not valid, device time %s", p, tt.time)
			}
			net, _ := p.Network.(map[string]any)
			if net["radioType"] != tt.radio || net["considerIp"] != false {
				t.Errorf("network %v, want radioType %s", net, tt.radio)
			}
			var towers []tower
			cells, _ := net["cellTowers"].([]map[string]any)
			for _, c := range cells {
				if c["mobileCountryCode"] != tt.mcc || c["mobileNetworkCode"] != tt.mnc {
					t.Errorf("tower %v, want MCC %d MNC %d", c, tt.mcc, tt.mnc)
				}
				towers = append(towers, tower{c["locationAreaCode"].(int), c["cellId"].(int64), c["signalStrength"].(int)})
			}
			if !reflect.DeepEqual(towers, tt.towers) {
				t.Errorf("towers = %v, want %v", towers, tt.towers)
			}
			var wifi []ap
			points, _ := net["wifiAccessPoints"].([]map[string]any)
			for _, w := range points {
				wifi = append(wifi, ap{w["macAddress"].(string), w["signalStrength"].(int)})
			}
			if !reflect.DeepEqual(wifi, tt.wifi) {
				t.Errorf("wifi = %v, want %v", wifi, tt.wifi)
			}
		})
	}
}

// rfidFrame is the RFID model's 0x17 (GPS, cell, driver id), with a CRC,
// not the Wi-Fi layout.
const rfidFrame = "7878281718060e021831c6026e8acc0c361b1000140001cc00286d000f4dbf0000012ca7e001000004b2630d0a"
