package wialon

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// The shared frames of samples-next.md section 11 (Traccar's test, commit 9e5c458).
const (
	loginV2   = "#L#2.0;42001300083;;CE45" // its CRC is wrong (CE45; the message's is DBEB)
	shortV2   = "#SD#300924;154245;5554.350052;N;3644.670410;E;2.92;NA;NA;NA;7A01"
	ping      = "#P#"
	data1     = "#D#151216;140203;5312.59514;N;04830.37834;E;53;273;NA;10;NA;NA;NA;NA;NA;EvId:1:1,Board:2:12.81,Accum:2:4.28"
	shortUDP  = "99999999#SD#270413;205601;5544.6025;N;03739.6834;E;1;2;3;4"
	data2     = "#D#190114;051312;4459.6956;N;04105.9930;E;35;306;204.000000;12;NA;452986639;NA;106.000000;NA;sats_gps:1:9,sats_glonass:1:3,balance:2:12123.000000,stay_balance:1:0"
	blackBox  = "#B#080914;073235;5027.50625;N;03026.19321;E;0.700;0.000;NA;4;NA;NA;NA;;NA;Батарея:3:100 %|080914;073420;5027.50845;N;03026.18854;E;1.996;292.540;NA;4;NA;NA;NA;;NA;Батарея:3:100 %"
	noFix     = "#D#NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;;NA;SOS:1:0,temp:3:18,bat:3:99"
	dataV2CRC = "#D#220323;114150;2234.80479;N;11354.87786;E;0;NA;59;11;NA;NA;NA;;NA;d_battr:1:94,d_csq:1:21,di_light:1:1;E7C9"
)

var now = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

func testProtocol() *Protocol { return &Protocol{now: func() time.Time { return now }} }

var checker = prototest.Checker{Protocol: Name, SpeedTolerance: 1e-9}

func at(s string) time.Time {
	t, err := time.Parse(time.DateTime, s)
	if err != nil {
		panic(err)
	}
	return t
}

const kph = 1 / 1.852

func TestDecode(t *testing.T) {
	cases := []struct {
		name  string
		frame string
		want  prototest.Result
	}{
		{"login 2.0 (bad CRC in the sample)", loginV2, prototest.Result{UniqueID: "42001300083", Reply: "#AL#1\r\n", ChecksumError: true}},
		{"login 1.1", "#L#123456789012345;test", prototest.Result{UniqueID: "123456789012345", Reply: "#AL#1\r\n"}},
		{"login 2.0 with a good CRC", "#L#2.0;42001300083;;DBEB", prototest.Result{UniqueID: "42001300083", Reply: "#AL#1\r\n"}},
		{"ping", ping, prototest.Result{Reply: "#AP#\r\n"}},
		{"short data 2.0", shortV2, prototest.Result{Ack: "#ASD#1\r\n", Positions: []prototest.Position{{
			Time: at("2024-09-30 15:42:45"), Lat: 55.905834, Lon: 36.744507, Speed: 2.92 * kph,
			Attributes: model.Attributes{}}}}},
		{"data", data1, prototest.Result{Ack: "#AD#1\r\n", Positions: []prototest.Position{{
			Time: at("2016-12-15 14:02:03"), Valid: true, Lat: 53.209919, Lon: 48.506306, Speed: 53 * kph, Course: 273,
			Attributes: model.Attributes{"sat": 10, "evid": int64(1), "board": 12.81, "accum": 4.28}}}}},
		{"short data with the id in front", shortUDP, prototest.Result{UniqueID: "99999999", Ack: "#ASD#1\r\n", Positions: []prototest.Position{{
			Time: at("2013-04-27 20:56:01"), Valid: true, Lat: 55.74338, Lon: 37.66139, Speed: 1 * kph, Course: 2, Altitude: 3,
			Attributes: model.Attributes{"sat": 4}}}}},
		{"data with params", data2, prototest.Result{Ack: "#AD#1\r\n", Positions: []prototest.Position{{
			Time: at("2014-01-19 05:13:12"), Valid: true, Lat: 44.99493, Lon: 41.099883, Speed: 35 * kph, Course: 306, Altitude: 204,
			Attributes: model.Attributes{"sat": 12, "input": int64(452986639), "adc1": 106.0, "sats_gps": int64(9),
				"sats_glonass": int64(3), "balance": 12123.0, "stay_balance": int64(0)}}}}},
		{"black box", blackBox, prototest.Result{Ack: "#AB#2\r\n", Positions: []prototest.Position{
			{Time: at("2014-09-08 07:32:35"), Valid: true, Lat: 50.458438, Lon: 30.436554, Speed: 0.7 * kph,
				Attributes: model.Attributes{"sat": 4, "батарея": "100 %", "archive": true}},
			{Time: at("2014-09-08 07:34:20"), Valid: true, Lat: 50.458474, Lon: 30.436476, Speed: 1.996 * kph, Course: 292.54,
				Attributes: model.Attributes{"sat": 4, "батарея": "100 %", "archive": true}}}}},
		{"data without a fix", noFix, prototest.Result{Ack: "#AD#1\r\n", Positions: []prototest.Position{{
			Time: now, Outdated: true, Attributes: model.Attributes{"sos": int64(0), "deviceTemp": int64(18), "batteryLevel": int64(99)}}}}},
		{"data 2.0 with its CRC", dataV2CRC, prototest.Result{Ack: "#AD#1\r\n", Positions: []prototest.Position{{
			Time: at("2023-03-22 11:41:50"), Valid: true, Lat: 22.580080, Lon: 113.914631, Altitude: 59,
			Attributes: model.Attributes{"sat": 11, "d_battr": int64(94), "d_csq": int64(21), "di_light": int64(1)}}}}},
		{"data 2.0 with a wrong CRC", dataV2CRC[:len(dataV2CRC)-1] + "8", prototest.Result{Ack: "#AD#1\r\n", ChecksumError: true, Positions: []prototest.Position{{
			Time: at("2023-03-22 11:41:50"), Valid: true, Lat: 22.580080, Lon: 113.914631, Altitude: 59,
			Attributes: model.Attributes{"sat": 11, "d_battr": int64(94), "d_csq": int64(21), "di_light": int64(1)}}}}},
		{"cells", "#D#NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;;NA;mnc1:1:02,mcc1:1:250,lac1:1:5901,cell_id1:1:45542,mnc2:1:22,mcc2:1:222,lac2:1:2222,cell_id2:1:22222,mcc3:1:333",
			prototest.Result{Ack: "#AD#1\r\n", Positions: []prototest.Position{{Time: now, Outdated: true,
				Attributes: model.Attributes{"mcc3": int64(333)},
				Network: map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": []map[string]any{
					{"mobileCountryCode": int64(250), "mobileNetworkCode": int64(2), "locationAreaCode": int64(5901), "cellId": int64(45542)},
					{"mobileCountryCode": int64(222), "mobileNetworkCode": int64(22), "locationAreaCode": int64(2222), "cellId": int64(22222)}}}}}}},
		{"driver message", "#M#hello", prototest.Result{CommandResult: "hello", Ack: "#AM#1\r\n"}},
		{"ibutton and accuracy", "#D#021214;065947;2237.7552;S;11404.8851;W;0.000;;170.9;2;1.74;1;2;3.5,x;AB45DF01145;accuracy:2:12.5,motion:3:false",
			prototest.Result{Ack: "#AD#1\r\n", Positions: []prototest.Position{{
				Time: at("2014-12-02 06:59:47"), Lat: -22.629253, Lon: -114.081418, Altitude: 170.9, Accuracy: 12.5,
				Attributes: model.Attributes{"sat": 2, "hdop": 1.74, "input": int64(1), "output": int64(2), "adc1": 3.5, "adc2": "x",
					"driverUniqueId": "AB45DF01145", "motion": false}}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checker.Decode(t, testProtocol().Decode, tc.frame, tc.want)
		})
	}
}

// A 2.0 login makes the connection's driver messages end with a CRC.
func TestMessageAfterLogin(t *testing.T) {
	p := testProtocol()
	c := &protocols.Conn{}
	if _, err := p.Decode(c, []byte("#L#2.0;42001300083;;DBEB")); err != nil {
		t.Fatal(err)
	}
	msg := "#M#hi;" + "0000"
	res, err := p.Decode(c, []byte(msg))
	if err != nil || res.CommandResult != "hi" || !res.ChecksumError {
		t.Errorf("Decode(%q) = %+v, %v; want text hi with a checksum error", msg, res, err)
	}
}

func TestDecodeUnsupported(t *testing.T) {
	res, err := testProtocol().Decode(&protocols.Conn{}, []byte("#I#10;0;1;NA;NA;photo.jpg;1234"))
	if err != nil || res.Unsupported == "" || res.Reply != nil || res.Ack != nil {
		t.Errorf("image packet: %+v, %v; want unsupported", res, err)
	}
}

func TestDecodeRejects(t *testing.T) {
	prototest.DecodeRejects(t, testProtocol().Decode, nil,
		"hello", "#L#", "#D#1;2;3", "#SD#300924;154245;5554.350052;N;3644.670410;X;2.92;NA;NA;NA",
		"#SD#320924;154245;5554.35;N;3644.67;E;1;NA;NA;NA",
		"#SD#300924;154245;9554.35;N;3644.67;E;1;NA;NA;NA", "#B#", "bad id#P#")
}

func TestCRC16(t *testing.T) {
	if got := crc16("123456789"); got != 0xBB3D {
		t.Errorf("crc16 check value = %#04x, want 0xbb3d (CRC-16/ARC)", got)
	}
	if !crcMatches("NA;", fmtCRC(crc16("NA;"))) || !crcMatches("x", "0x"+fmtCRC(crc16("x"))) || crcMatches("x", "") {
		t.Error("crcMatches")
	}
}
