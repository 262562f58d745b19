package gl200

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// at parses a yyyyMMddHHmmss UTC time of a fixture.
func at(s string) time.Time {
	t, err := time.Parse("20060102150405", s)
	if err != nil {
		panic(err)
	}
	return t
}

// sharedFrame is one frame of samples-next.md section 2 (Traccar's decoder
// tests, commit 9e5c458) with everything it decodes to. The values Traccar
// asserts are in the table (and checked once more by TestTraccarValues);
// the rest were read off the frames by hand: the fix, the cell (LAC and
// cell id hex), speed km/h in knots.
type sharedFrame struct {
	frame  string
	binary bool // frame is hex
	want   prototest.Result
}

func (s sharedFrame) bytes(t testing.TB) []byte {
	if s.binary {
		return prototest.Unhex(t, s.frame)
	}
	return []byte(s.frame)
}

// wire is the frame as a device sends it: Traccar's tests hold some text
// frames without their '$'.
func (s sharedFrame) wire(t testing.TB) []byte {
	b := s.bytes(t)
	if !s.binary && b[len(b)-1] != '$' {
		b = append(b, '$')
	}
	return b
}

var checker = prototest.Checker{Protocol: Name, SpeedTolerance: 1e-9}

// TestSharedFrames decodes every shared frame as a datagram (whole, with
// its '$') and as the stream delivers it (cut by Split).
func TestSharedFrames(t *testing.T) {
	p := &Protocol{now: prototest.Clock}
	for i, s := range shared {
		frame := s.bytes(t)
		res, err := p.DecodeDatagram(&protocols.Conn{}, frame)
		if err != nil {
			t.Fatalf("frame %d: %v", i+1, err)
		}
		checker.Result(t, res, s.want)
		wire := s.wire(t)
		adv, tok, err := p.Split(wire, false)
		if err != nil || adv != len(wire) || tok == nil {
			t.Fatalf("frame %d: Split = %d, %q, %v", i+1, adv, tok, err)
		}
		res, err = p.Decode(&protocols.Conn{}, tok)
		if err != nil {
			t.Fatalf("frame %d cut: %v", i+1, err)
		}
		checker.Result(t, res, s.want)
	}
}

// TestTraccarValues checks the values Traccar's tests assert exactly.
func TestTraccarValues(t *testing.T) {
	p := New()
	for _, c := range []struct {
		n     int // shared frame number
		key   string
		value any
	}{
		{2, "alarm", "sos"},
		{4, "data", ">I:5014|DB|607|0|0.00|0.00|0.00|0|0|0|0|1679|4|<"},
		{5, "batteryLevel", nil},
		{7, "power2", 13.985},
		{10, "batteryLevel", 100},
		{11, "ignition", true},
		{13, "accessoryVoltage", 3.065},
		{14, "accessoryVoltage", 2.934},
		{15, "fuel", 94.0},
		{16, "warningType", 4},
		{17, "batteryLevel", 85},
		{18, "batteryLevel", 9},
		{19, "alarm", "powerOff"},
	} {
		res, err := p.DecodeDatagram(&protocols.Conn{}, shared[c.n-1].bytes(t))
		if err != nil || len(res.Positions) == 0 {
			t.Fatalf("frame %d: %v", c.n, err)
		}
		last := res.Positions[len(res.Positions)-1]
		if got := last.Attributes[c.key]; got != c.value {
			t.Errorf("frame %d: %s = %#v, want %#v", c.n, c.key, got, c.value)
		}
	}
}

var shared = []sharedFrame{
	{ // 1
		frame: "+RESP:GTRTL,DF0200,868487004353181,cv100,,00,1,0,0.0,0,102.2,114.015295,22.537250,20210608063942,0460,0001,25F8,061A7D02,,0.0,20210608143939,32CF$",
		want: prototest.Result{UniqueID: "868487004353181", Ack: "+SACK:32CF$", Positions: []prototest.Position{
			{Time: at("20210608063942"), Valid: true, Lat: 22.53725, Lon: 114.015295, Speed: 0.0, Course: 0, Altitude: 102.2,
				Attributes: model.Attributes{"hdop": 0, "type": "RTL"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(102399234), "locationAreaCode": int64(9720), "mobileCountryCode": 460, "mobileNetworkCode": 1}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 2
		frame: "+RESP:GTSOS,DF0200,868487004358800,cv100,,00,1,1,0.0,0,138.0,114.015465,22.537372,20210714115224,0460,0001,25F8,061A7D02,,,20210714195224,20210714195224,03A6$",
		want: prototest.Result{UniqueID: "868487004358800", Ack: "+SACK:03A6$", Positions: []prototest.Position{
			{Time: at("20210714115224"), Valid: true, Lat: 22.537372, Lon: 114.015465, Speed: 0.0, Course: 0, Altitude: 138,
				Attributes: model.Attributes{"alarm": "sos", "hdop": 1, "type": "SOS"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(102399234), "locationAreaCode": int64(9720), "mobileCountryCode": 460, "mobileNetworkCode": 1}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 3
		frame: "+RESP:GTIGN,BD0221,861778061565387,CV200,,0,140944,0,0.0,358,17.6,-2.223488,51.882342,20251222020123,0234,0015,6093,000F830E,,,5810.9,20251222070035,20251222070035,C60E$",
		want: prototest.Result{UniqueID: "861778061565387", Ack: "+SACK:C60E$", Positions: []prototest.Position{
			{Time: at("20251222020123"), Valid: true, Lat: 51.882342, Lon: -2.223488, Speed: 0.0, Course: 358, Altitude: 17.6,
				Attributes: model.Attributes{"hdop": 0.0, "ignition": true, "odometer": 5.8109e+06, "type": "IGN"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(1016590), "locationAreaCode": int64(24723), "mobileCountryCode": 234, "mobileNetworkCode": 15}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 4
		frame: "+RESP:GTDAT,270B01,867162027893742,gv300w,1,,,>I:5014|DB|607|0|0.00|0.00|0.00|0|0|0|0|1679|4|<,0,37.6,184,1940.4,-101.041169,22.143452,20240726234344,0334,0020,2F03,BDB2E4B,00,,,,,20240726234346,4CFE$",
		want: prototest.Result{UniqueID: "867162027893742", Ack: "+SACK:4CFE$", Positions: []prototest.Position{
			{Time: at("20240726234344"), Valid: true, Lat: 22.143452, Lon: -101.041169, Speed: 20.302375809935203, Course: 184, Altitude: 1940.4,
				Attributes: model.Attributes{"data": ">I:5014|DB|607|0|0.00|0.00|0.00|0|0|0|0|1679|4|<", "hdop": 0.0, "type": "DAT"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(198913611), "locationAreaCode": int64(12035), "mobileCountryCode": 334, "mobileNetworkCode": 20}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 5
		frame: "+RESP:GTPNA,710402,867292060140006,,2,20250516120427,0121$",
		want: prototest.Result{UniqueID: "867292060140006", Ack: "+SACK:0121$", Positions: []prototest.Position{
			{Time: at("20250516120427"), Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0.0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"alarm": "powerOn", "type": "PNA"},
				Network:    nil},
		}},
	},
	{ // 6
		frame: "+BUFF:GTIGF,840502,867963063190000,,0,0,,,,,,,0268,0006,22C4,13E5,00,,,20250116170541,22D0$",
		want: prototest.Result{UniqueID: "867963063190000", Ack: "+SACK:22D0$", Positions: []prototest.Position{
			{Time: at("20250116170541"), Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0.0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"archive": true, "hdop": 0.0, "ignition": false, "type": "IGF"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(5093), "locationAreaCode": int64(8900), "mobileCountryCode": 268, "mobileNetworkCode": 6}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 7
		frame: "+RESP:GTINF,C20113,869653060997976,,1A,89464278206103756482,19,0,11,12295,13985,4.25,0,0,,,20241104220934,0,0,,00,00,,,20241104162009,06D6$",
		want: prototest.Result{UniqueID: "869653060997976", Ack: "+SACK:06D6$", Positions: []prototest.Position{
			{Time: at("20241104162009"), Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0.0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"battery": 4.25, "iccid": "89464278206103756482", "ignition": false, "motion": true, "power": 12.295, "power2": 13.985, "rssi": 19, "type": "INF"},
				Network:    nil},
		}},
	},
	{ // 8
		frame: "+RESP:GTLBS,660400,863574046265138,GL50BLITE,0,0,92,,2,,,0000,0204,0008,0cee,b951,18,,0204,0008,0cee,cd83,15,,0204,0008,0cee,3994,13,,,,,,,,,,,,,,,,,,,,0204,0008,0cee,d071,11,,20240826085102,00C6$",
		want: prototest.Result{UniqueID: "863574046265138", Ack: "+SACK:00C6$", Positions: []prototest.Position{
			{Time: at("20240826085102"), Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0.0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"batteryLevel": 92, "type": "LBS"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(47441), "locationAreaCode": int64(3310), "mobileCountryCode": 204, "mobileNetworkCode": 8, "signalStrength": 18}, map[string]any{"cellId": int64(52611), "locationAreaCode": int64(3310), "mobileCountryCode": 204, "mobileNetworkCode": 8, "signalStrength": 15}, map[string]any{"cellId": int64(14740), "locationAreaCode": int64(3310), "mobileCountryCode": 204, "mobileNetworkCode": 8, "signalStrength": 13}, map[string]any{"cellId": int64(53361), "locationAreaCode": int64(3310), "mobileCountryCode": 204, "mobileNetworkCode": 8, "signalStrength": 11}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 9
		frame: "+RESP:GTINF,423036,866884046104139,,41,89103000000064820042,22,99,0,,,3.82,0,0,1,0,0,20240622183159,57,,,,,20240623011548,005C$",
		want: prototest.Result{UniqueID: "866884046104139", Ack: "+SACK:005C$", Positions: []prototest.Position{
			{Time: at("20240623011548"), Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0.0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"battery": 3.82, "iccid": "89103000000064820042", "motion": false, "rssi": 22, "type": "INF"},
				Network:    nil},
		}},
	},
	{ // 10
		frame: "+RESP:GTERI,8020050704,867488060246195,,00000004,28823,10,1,1,0.0,33,10.1,10.606120,43.656780,20240408084402,0222,0010,7D53,00DD120D,02,0,0.0,,,,,100,210100,0,1,FFFFF,YS2R4X20009288827,2,H1910197,58234.30,500,1,90,H1.5,P84.00,,0,4616.20,2.28,2.16,5.64,5358,1038,0010,00,00,20240408084403,1809$",
		want: prototest.Result{UniqueID: "867488060246195", Ack: "+SACK:1809$", Positions: []prototest.Position{
			{Time: at("20240408084402"), Valid: true, Lat: 43.65678, Lon: 10.60612, Speed: 0.0, Course: 33, Altitude: 10.1,
				Attributes: model.Attributes{"batteryLevel": 100, "hdop": 1.0, "ignition": true, "in1": false, "in2": false, "input": int64(1), "odometer": 0.0, "out1": false, "out2": false, "output": int64(0), "power": 28.823, "type": "ERI"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(14488077), "locationAreaCode": int64(32083), "mobileCountryCode": 222, "mobileNetworkCode": 10}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 11
		frame: "+RESP:GTVGN,C2010D,869653060009939,GV600M,453966,0,0.0,0,163.9,10.239379,45.931389,20231210233723,0222,0010,2F31,006D7621,,,0.0,20240107182623,143F$",
		want: prototest.Result{UniqueID: "869653060009939", Ack: "+SACK:143F$", Positions: []prototest.Position{
			{Time: at("20231210233723"), Valid: true, Lat: 45.931389, Lon: 10.239379, Speed: 0.0, Course: 0, Altitude: 163.9,
				Attributes: model.Attributes{"hdop": 0.0, "ignition": true, "odometer": 0.0, "type": "VGN"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(7173665), "locationAreaCode": int64(12081), "mobileCountryCode": 222, "mobileNetworkCode": 10}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 12
		frame: "+RESP:GTCAN,F1040C,862599050497393,GV350M,0,0,FFFFFFFF,,1,,,,,,,,,,,,,,,,,,,,,,,0,,,1,0.0,70,2961.6,-78.691750,-0.951135,20230703191659,,,,,,20230703191659,5A4A$",
		want: prototest.Result{UniqueID: "862599050497393", Ack: "+SACK:5A4A$", Positions: []prototest.Position{
			{Time: at("20230703191659"), Valid: true, Lat: -0.951135, Lon: -78.69175, Speed: 0.0, Course: 70, Altitude: 2961.6,
				Attributes: model.Attributes{"ignition": true, "type": "CAN"},
				Network:    nil},
		}},
	},
	{ // 13
		frame: "+RESP:GTBAA,F1040C,862599050497393,GV350M,FF,3,0,04,000A,780541256AE9,3065,0,0.0,213,2908.3,-78.691944,-0.951426,20230511173150,,,,,,20230511175001,0159$",
		want: prototest.Result{UniqueID: "862599050497393", Ack: "+SACK:0159$", Positions: []prototest.Position{
			{Time: at("20230511173150"), Valid: true, Lat: -0.951426, Lon: -78.691944, Speed: 0.0, Course: 213, Altitude: 2908.3,
				Attributes: model.Attributes{"accessoryMac": "780541256AE9", "accessoryVoltage": 3.065, "hdop": 0.0, "type": "BAA"},
				Network:    nil},
		}},
	},
	{ // 14
		frame: "+RESP:GTBID,C20105,866833040163013,GV350M,1,0,000A,B80EA11FF800,2934,0,0.0,0,1506.5,-99.192686,18.932709,20221026025339,0334,0020,0232,029D4E02,,20221026181026,9F1D$",
		want: prototest.Result{UniqueID: "866833040163013", Ack: "+SACK:9F1D$", Positions: []prototest.Position{
			{Time: at("20221026025339"), Valid: true, Lat: 18.932709, Lon: -99.192686, Speed: 0.0, Course: 0, Altitude: 1506.5,
				Attributes: model.Attributes{"accessoryMac": "B80EA11FF800", "accessoryVoltage": 2.934, "hdop": 0.0, "type": "BID"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(43863554), "locationAreaCode": int64(562), "mobileCountryCode": 334, "mobileNetworkCode": 20}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 15
		frame: "+RESP:GTDTT,410502,864802030541621,,,,1,35,45637561747261636b0d0a434f4d422c302c39342e302c2d312e302c2c2c4844430d0a,20230421034626,EA2E$",
		want: prototest.Result{UniqueID: "864802030541621", Ack: "+SACK:EA2E$", Positions: []prototest.Position{
			{Time: at("20230421034626"), Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0.0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"fuel": 94.0, "type": "DTT"},
				Network:    nil},
		}},
	},
	{ // 16
		frame: "+RESP:GTDAR,F10406,865284049582228,,4,0,,,1,18.5,0,129.4,114.015430,22.537279,20210922004634,0460,0000,27BD,0DFC,,,,20210922004635,082B$",
		want: prototest.Result{UniqueID: "865284049582228", Ack: "+SACK:082B$", Positions: []prototest.Position{
			{Time: at("20210922004634"), Valid: true, Lat: 22.537279, Lon: 114.01543, Speed: 9.989200863930884, Course: 0, Altitude: 129.4,
				Attributes: model.Attributes{"hdop": 1.0, "type": "DAR", "warningType": 4},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(3580), "locationAreaCode": int64(10173), "mobileCountryCode": 460, "mobileNetworkCode": 0}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 17
		frame: "+RESP:GTFRI,423031,866873025895726,,0,1,1,0,1,16,0.0,351,51.6,121.391063,31.164633,20181212072535,460,00,1877,DAE,00,3,85,20181212072535,002C$",
		want: prototest.Result{UniqueID: "866873025895726", Ack: "+SACK:002C$", Positions: []prototest.Position{
			{Time: at("20181212072535"), Valid: true, Lat: 31.164633, Lon: 121.391063, Speed: 0.0, Course: 351, Altitude: 51.6,
				Attributes: model.Attributes{"batteryLevel": 85, "charge": false, "hdop": 16.0, "motion": true, "rssi": 3, "type": "FRI"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(3502), "locationAreaCode": int64(6263), "mobileCountryCode": 460, "mobileNetworkCode": 0}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 18
		frame: "+RESP:GTCTN,440200,866427030007379,NOKIA3,0,0,2,,9,1,0.1,174,48.7,-1.061812,51.435270,20190717080549,0234,0015,0025,145A,,,0000,20190717081008,1D3B$",
		want: prototest.Result{UniqueID: "866427030007379", Ack: "+SACK:1D3B$", Positions: []prototest.Position{
			{Time: at("20190717080549"), Valid: true, Lat: 51.43527, Lon: -1.061812, Speed: 0.05399568034557235, Course: 174, Altitude: 48.7,
				Attributes: model.Attributes{"batteryLevel": 9, "hdop": 1.0, "type": "CTN"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(5210), "locationAreaCode": int64(37), "mobileCountryCode": 234, "mobileNetworkCode": 15}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 19
		frame: "+RESP:GTPFA,F50201,866425030235982,GL300M,20190208124849,0BD4$",
		want: prototest.Result{UniqueID: "866425030235982", Ack: "+SACK:0BD4$", Positions: []prototest.Position{
			{Time: at("20190208124849"), Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0.0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"alarm": "powerOff", "type": "PFA"},
				Network:    nil},
		}},
	},
	{ // 20
		frame: "+BUFF:GTSTC,410301,864802030022424,,,0,,,,,,,0228,0002,4EE8,1BFF489,00,20181207134332,EC90$",
		want: prototest.Result{UniqueID: "864802030022424", Ack: "+SACK:EC90$", Positions: []prototest.Position{
			{Time: at("20181207134332"), Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0.0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"archive": true, "type": "STC"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(29357193), "locationAreaCode": int64(20200), "mobileCountryCode": 228, "mobileNetworkCode": 2}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 21
		frame: "+RESP:GTFRI,1A0900,860599000306845,G3-313,0,0,4,1,2.1,0,426.7,8.611466,47.681639,20181214134603,0228,0001,077F,4812,25.2,1,5.7,34,437.3,8.611600,47.681846,20181214134619,0228,0001,077F,4812,25.2,1,4.4,62,438.2,8.611893,47.681983,20181214134633,0228,0001,077F,4812,25.2,1,4.8,78,436.6,8.612236,47.682040,20181214134648,0228,0001,077F,4812,25.2,83,20181214134702,0654$",
		want: prototest.Result{UniqueID: "860599000306845", Ack: "+SACK:0654$", Positions: []prototest.Position{
			{Time: at("20181214134603"), Valid: true, Lat: 47.681639, Lon: 8.611466, Speed: 1.1339092872570193, Course: 0, Altitude: 426.7,
				Attributes: model.Attributes{"hdop": 1.0, "odometer": 25200.0, "type": "FRI"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(18450), "locationAreaCode": int64(1919), "mobileCountryCode": 228, "mobileNetworkCode": 1}}, "considerIp": false, "radioType": "gsm"}},
			{Time: at("20181214134619"), Valid: true, Lat: 47.681846, Lon: 8.6116, Speed: 3.077753779697624, Course: 34, Altitude: 437.3,
				Attributes: model.Attributes{"hdop": 1.0, "odometer": 25200.0, "type": "FRI"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(18450), "locationAreaCode": int64(1919), "mobileCountryCode": 228, "mobileNetworkCode": 1}}, "considerIp": false, "radioType": "gsm"}},
			{Time: at("20181214134633"), Valid: true, Lat: 47.681983, Lon: 8.611893, Speed: 2.375809935205184, Course: 62, Altitude: 438.2,
				Attributes: model.Attributes{"hdop": 1.0, "odometer": 25200.0, "type": "FRI"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(18450), "locationAreaCode": int64(1919), "mobileCountryCode": 228, "mobileNetworkCode": 1}}, "considerIp": false, "radioType": "gsm"}},
			{Time: at("20181214134648"), Valid: true, Lat: 47.68204, Lon: 8.612236, Speed: 2.5917926565874727, Course: 78, Altitude: 436.6,
				Attributes: model.Attributes{"batteryLevel": 83, "hdop": 1.0, "odometer": 25200.0, "type": "FRI"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(18450), "locationAreaCode": int64(1919), "mobileCountryCode": 228, "mobileNetworkCode": 1}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 22
		frame: "+RESP:GTFRI,1F0301,862193022001432,WF0GXXGBBGBM26503,,14900,41,1,1,11.6,74,356.0,14.120023,50.167894,20181104080703,0230,0003,9B14,5891,00,74.1,,,,83,220000,799,7.3,,20181104080703,099B$",
		want: prototest.Result{UniqueID: "862193022001432", Ack: "+SACK:099B$", Positions: []prototest.Position{
			{Time: at("20181104080703"), Valid: true, Lat: 50.167894, Lon: 14.120023, Speed: 6.263498920086392, Course: 74, Altitude: 356,
				Attributes: model.Attributes{"batteryLevel": 83, "hdop": 1.0, "ignition": true, "in1": false, "in2": false, "input": int64(0), "odometer": 74100.0, "out1": false, "out2": false, "output": int64(0), "power": 14.9, "rpm": 799, "type": "FRI", "vin": "WF0GXXGBBGBM26503"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(22673), "locationAreaCode": int64(39700), "mobileCountryCode": 230, "mobileNetworkCode": 3}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 23
		frame: "+RESP:GTSTR,440502,866427030112088,GL530,0,0,2,,100,3,0.6,0,127.5,2.413963,48.877096,20180704180102,0208,0001,0310,E625,,,0000,20180704180100,004C$",
		want: prototest.Result{UniqueID: "866427030112088", Ack: "+SACK:004C$", Positions: []prototest.Position{
			{Time: at("20180704180102"), Valid: true, Lat: 48.877096, Lon: 2.413963, Speed: 0.3239740820734341, Course: 0, Altitude: 127.5,
				Attributes: model.Attributes{"batteryLevel": 100, "hdop": 3.0, "type": "STR"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(58917), "locationAreaCode": int64(784), "mobileCountryCode": 208, "mobileNetworkCode": 1}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 24
		frame: "+RESP:GTLSW,300500,860599002636595,,0,1,0,0.0,0,2886.5,-78.467145,-0.165335,20180518221818,,,,,,20180518221819,B6FF$",
		want: prototest.Result{UniqueID: "860599002636595", Ack: "+SACK:B6FF$", Positions: []prototest.Position{
			{Time: at("20180518221818"), Valid: true, Lat: -0.165335, Lon: -78.467145, Speed: 0.0, Course: 0, Altitude: 2886.5,
				Attributes: model.Attributes{"hdop": 0.0, "in1": true, "type": "LSW"},
				Network:    nil},
		}},
	},
	{ // 25
		frame: "+RESP:GTTSW,1A0100,135790246811220,,1,0,0,4.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,20100214093254,11F0$",
		want: prototest.Result{UniqueID: "135790246811220", Ack: "+SACK:11F0$", Positions: []prototest.Position{
			{Time: at("20090214013254"), Valid: true, Lat: 31.222073, Lon: 121.354335, Speed: 2.321814254859611, Course: 92, Altitude: 70,
				Attributes: model.Attributes{"hdop": 0.0, "in2": false, "type": "TSW"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(24897), "locationAreaCode": int64(6360), "mobileCountryCode": 460, "mobileNetworkCode": 0}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 26
		frame: "+RESP:GTDIS,270302,867162025086950,,,21,1,1,0.0,81,117.8,-116.862025,32.453497,20180309084516,0334,0020,2B24,52CA916,00,1286.2,20180309084517,357E$",
		want: prototest.Result{UniqueID: "867162025086950", Ack: "+SACK:357E$", Positions: []prototest.Position{
			{Time: at("20180309084516"), Valid: true, Lat: 32.453497, Lon: -116.862025, Speed: 0.0, Course: 81, Altitude: 117.8,
				Attributes: model.Attributes{"hdop": 1, "type": "DIS"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(86812950), "locationAreaCode": int64(11044), "mobileCountryCode": 334, "mobileNetworkCode": 20}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 27
		frame: "+RESP:GTMPN,450102,865084030001323,gb100,0,1.6,0,-93.1,121.393023,31.164105,20170619103113,0460,0000,1806,2142,00,20170619103143,0512$",
		want: prototest.Result{UniqueID: "865084030001323", Ack: "+SACK:0512$", Positions: []prototest.Position{
			{Time: at("20170619103113"), Valid: true, Lat: 31.164105, Lon: 121.393023, Speed: 0.8639308855291576, Course: 0, Altitude: -93.1,
				Attributes: model.Attributes{"alarm": "powerRestored", "batteryLevel": 0, "hdop": 0, "type": "MPN"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(8514), "locationAreaCode": int64(6150), "mobileCountryCode": 460, "mobileNetworkCode": 0}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 28
		frame: "+RESP:GTTRI,862370030005908,1,0,99,1,0.0,354,18.5,18.821100,-34.084002,20170607152024,0655,0001,00DD,1CAE,00,0103010100,20170607172115,3E7D$",
		want: prototest.Result{UniqueID: "862370030005908", Ack: "+SACK:3E7D$", Positions: []prototest.Position{
			{Time: at("20170607152024"), Valid: true, Lat: -34.084002, Lon: 18.8211, Speed: 0.0, Course: 354, Altitude: 18.5,
				Attributes: model.Attributes{"hdop": 1, "type": "TRI"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(7342), "locationAreaCode": int64(221), "mobileCountryCode": 655, "mobileNetworkCode": 1}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 29
		frame: "+RESP:GTERI,060800,861074023677175,,00000002,12351,10,1,1,0.0,0,2862.4,-78.467273,-0.164998,20170529181717,,,,,,0.0,00259:11:50,,,0,210104,2,1,28E17436060000E2,1,015F,0,20170529181723,2824$",
		want: prototest.Result{UniqueID: "861074023677175", Ack: "+SACK:2824$", Positions: []prototest.Position{
			{Time: at("20170529181717"), Valid: true, Lat: -0.164998, Lon: -78.467273, Speed: 0.0, Course: 0, Altitude: 2862.4,
				Attributes: model.Attributes{"batteryLevel": 0, "hdop": 1.0, "hours": int64(933110000), "ignition": true, "in1": false, "in2": false, "input": int64(1), "odometer": 0.0, "out1": false, "out2": false, "output": int64(4), "power": 12.351, "temp1": 21.9375, "type": "ERI"},
				Network:    nil},
		}},
	},
	{ // 30
		frame: "+RESP:GTSWG,110100,358688000000158,,1,0,2.1,0,27.1,121.390717,31.164424,20110901073917,0460,0000,1878,0873,,20110901154653,0015$",
		want: prototest.Result{UniqueID: "358688000000158", Ack: "+SACK:0015$", Positions: []prototest.Position{
			{Time: at("20110901073917"), Valid: true, Lat: 31.164424, Lon: 121.390717, Speed: 1.1339092872570193, Course: 0, Altitude: 27.1,
				Attributes: model.Attributes{"alarm": "geofence", "hdop": 0, "type": "SWG"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(2163), "locationAreaCode": int64(6264), "mobileCountryCode": 460, "mobileNetworkCode": 0}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 31
		frame: "+RESP:GTTMP,110100,358688000000158,,2,60,1,1,4.3,92,70.0,121.354335,31.222073,20110214013254,0460,0000,18d8,6141,00,80,20110214093254,000F$",
		want: prototest.Result{UniqueID: "358688000000158", Ack: "+SACK:000F$", Positions: []prototest.Position{
			{Time: at("20110214013254"), Valid: true, Lat: 31.222073, Lon: 121.354335, Speed: 2.321814254859611, Course: 92, Altitude: 70,
				Attributes: model.Attributes{"alarm": "temperature", "batteryLevel": 80, "hdop": 1, "type": "TMP"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(24897), "locationAreaCode": int64(6360), "mobileCountryCode": 460, "mobileNetworkCode": 0}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 32
		frame: "+BUFF:GTIGL,060228,862894020180553,,,00,1,1,3.4,199,409.6,-63.174466,-17.739317,20170407121823,0000,0000,0000,0000,00,15989.5,20170407081824,9606$",
		want: prototest.Result{UniqueID: "862894020180553", Ack: "+SACK:9606$", Positions: []prototest.Position{
			{Time: at("20170407121823"), Valid: true, Lat: -17.739317, Lon: -63.174466, Speed: 1.8358531317494597, Course: 199, Altitude: 409.6,
				Attributes: model.Attributes{"archive": true, "hdop": 1, "type": "IGL"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(0), "locationAreaCode": int64(0), "mobileCountryCode": 0, "mobileNetworkCode": 0}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 33
		frame: "+RESP:GTGSM,400201,862365030034940,STR,0234,0030,0870,2469,19,,0234,0030,0870,35ee,18,,0234,0030,0870,16ac,12,,0234,0030,0870,16b2,11,,0234,0030,0870,360f,6,,0234,0030,0870,165d,6,,0234,0030,0870,35ef,17,,20170215220049,008D$",
		want: prototest.Result{UniqueID: "862365030034940", Ack: "+SACK:008D$", Positions: []prototest.Position{
			{Time: at("20170215220049"), Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0.0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"type": "GSM"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(9321), "locationAreaCode": int64(2160), "mobileCountryCode": 234, "mobileNetworkCode": 30, "signalStrength": 19}, map[string]any{"cellId": int64(13806), "locationAreaCode": int64(2160), "mobileCountryCode": 234, "mobileNetworkCode": 30, "signalStrength": 18}, map[string]any{"cellId": int64(5804), "locationAreaCode": int64(2160), "mobileCountryCode": 234, "mobileNetworkCode": 30, "signalStrength": 12}, map[string]any{"cellId": int64(5810), "locationAreaCode": int64(2160), "mobileCountryCode": 234, "mobileNetworkCode": 30, "signalStrength": 11}, map[string]any{"cellId": int64(13839), "locationAreaCode": int64(2160), "mobileCountryCode": 234, "mobileNetworkCode": 30, "signalStrength": 6}, map[string]any{"cellId": int64(5725), "locationAreaCode": int64(2160), "mobileCountryCode": 234, "mobileNetworkCode": 30, "signalStrength": 6}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 34
		frame: "+RESP:GTWIF,210102,354524044484948,,1,08626693fb98,-36,,,,,,,,97,20170119071300,05E3$",
		want: prototest.Result{UniqueID: "354524044484948", Ack: "+SACK:05E3$", Positions: []prototest.Position{
			{Time: at("20170119071300"), Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0.0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"batteryLevel": 97, "type": "WIF"},
				Network:    map[string]any{"considerIp": false, "radioType": "gsm", "wifiAccessPoints": []map[string]any{map[string]any{"macAddress": "08:62:66:93:fb:98", "signalStrength": -36}}}},
		}},
	},
	{ // 35
		frame: "+RESP:GTINF,080100,135790246811220,,16,898600810906F8048812,16,0,1,11870,,4.1,0,0,0,,20090214013254,,12340,,00,00,+0800,0,20090214093254,11F0$",
		want: prototest.Result{UniqueID: "135790246811220", Ack: "+SACK:11F0$", Positions: []prototest.Position{
			{Time: at("20090214093254"), Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0.0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"battery": 4.1, "iccid": "898600810906F8048812", "ignition": false, "motion": true, "power": 11.87, "rssi": 16, "type": "INF"},
				Network:    nil},
		}},
	},
	{ // 36
		frame: "+BUFF:GTINF,1A0800,860599000773978,GL300,41,89701016426133851978,23,0,1,204.7,,3.84,1,1,0,0,0,20161006072548,62,1,38,,,20161006082343,0C98$",
		want: prototest.Result{UniqueID: "860599000773978", Ack: "+SACK:0C98$", Positions: []prototest.Position{
			{Time: at("20161006082343"), Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0.0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"archive": true, "battery": 3.84, "charge": true, "iccid": "89701016426133851978", "motion": false, "odometer": 204700.0, "rssi": 23, "type": "INF"},
				Network:    nil},
		}},
	},
	{ // 37
		frame: "+RESP:GTNMR,210102,A10000458356CE,,0,1,1,9,0.0,8,190.7,-85.765865,42.894837,20160316123202,,,,,60,30,20160316123202,0137$",
		want: prototest.Result{UniqueID: "A10000458356CE", Ack: "+SACK:0137$", Positions: []prototest.Position{
			{Time: at("20160316123202"), Valid: true, Lat: 42.894837, Lon: -85.765865, Speed: 0.0, Course: 8, Altitude: 190.7,
				Attributes: model.Attributes{"batteryLevel": 30, "hdop": 9, "motion": false, "type": "NMR"},
				Network:    nil},
		}},
	},
	{ // 38
		frame: "+RESP:GTIDA,06020A,862170013895931,,,D2C4FBC5,1,1,1,0.8,0,22.2,117.198630,31.845229,20120802121626,0460,0000,5663,2BB9,00,0.0,,,,,20120802121627,008E$",
		want: prototest.Result{UniqueID: "862170013895931", Ack: "+SACK:008E$", Positions: []prototest.Position{
			{Time: at("20120802121626"), Valid: true, Lat: 31.845229, Lon: 117.19863, Speed: 0.4319654427645788, Course: 0, Altitude: 22.2,
				Attributes: model.Attributes{"hdop": 1, "type": "IDA"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(11193), "locationAreaCode": int64(22115), "mobileCountryCode": 460, "mobileNetworkCode": 0}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 39
		frame: "+RESP:GTFRI,120113,555564055560555,,1,1,1,,,,,,,,0282,0380,f080,cabf,6900,79,20140824165629,0001$",
		want: prototest.Result{UniqueID: "555564055560555", Ack: "+SACK:0001$", Positions: []prototest.Position{
			{Time: at("20140824165629"), Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0.0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"batteryLevel": 79, "type": "FRI"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(51903), "locationAreaCode": int64(61568), "mobileCountryCode": 282, "mobileNetworkCode": 380}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 40
		frame: "+RESP:GTOBD,1F0109,864251020135483,4T1BE46KX7U018210,gv500,0,78FFFF,4T1BE46KX7U018210,1,13411,981B81C0,787,3,43,,921,463,1,10,0300030103030304001200310351035203530354,20,55,,1286,0,6.5,74,21.6,3.379710,6.529714,20150813074824,0621,0030,51C0,A2B3,00,0.0,20150813074828,A7E9$",
		want: prototest.Result{UniqueID: "864251020135483", Ack: "+SACK:A7E9$", Positions: []prototest.Position{
			{Time: at("20150813074824"), Valid: true, Lat: 6.529714, Lon: 3.37971, Speed: 3.509719222462203, Course: 74, Altitude: 21.6,
				Attributes: model.Attributes{"dtcsClearedDistance": 921, "dtcsCodes": "0300030103030304001200310351035203530354", "dtcsNumber": 10, "hdop": 0.0, "obdConnect": true, "obdOdometer": 0, "obdSpeed": 3, "rpm": 787, "temp1": 43, "throttle": 20, "type": "OBD"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(41651), "locationAreaCode": int64(20928), "mobileCountryCode": 621, "mobileNetworkCode": 30}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 41
		frame: "+RESP:GTSTT,04040C,359231038939904,,42,0,0.0,117,346.0,8.924243,50.798077,20130618125152,0262,0002,0299,109C,00,20130618125154,017A",
		want: prototest.Result{UniqueID: "359231038939904", Ack: "+SACK:017A$", Positions: []prototest.Position{
			{Time: at("20130618125152"), Valid: true, Lat: 50.798077, Lon: 8.924243, Speed: 0.0, Course: 117, Altitude: 346,
				Attributes: model.Attributes{"alarm": "movement", "batteryLevel": 0, "hdop": 0, "type": "STT"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(4252), "locationAreaCode": int64(665), "mobileCountryCode": 262, "mobileNetworkCode": 2}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 42
		frame: "+RESP:GTDOG,020102,135790246811220,,0,0,1,1,4.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,2000.0,20090214093254,11F0",
		want: prototest.Result{UniqueID: "135790246811220", Ack: "+SACK:11F0$", Positions: []prototest.Position{
			{Time: at("20090214013254"), Valid: true, Lat: 31.222073, Lon: 121.354335, Speed: 2.321814254859611, Course: 92, Altitude: 70,
				Attributes: model.Attributes{"hdop": 1, "type": "DOG"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(24897), "locationAreaCode": int64(6360), "mobileCountryCode": 460, "mobileNetworkCode": 0}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 43
		frame: "+RESP:GTLBC,020102,135790246811220,,+8613800000000,1,4.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,,20090214093254,11F0",
		want: prototest.Result{UniqueID: "135790246811220", Ack: "+SACK:11F0$", Positions: []prototest.Position{
			{Time: at("20090214013254"), Valid: true, Lat: 31.222073, Lon: 121.354335, Speed: 2.321814254859611, Course: 92, Altitude: 70,
				Attributes: model.Attributes{"hdop": 1, "type": "LBC"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(24897), "locationAreaCode": int64(6360), "mobileCountryCode": 460, "mobileNetworkCode": 0}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 44
		frame: "+RESP:GTGCR,020102,135790246811220,,3,50,180,2,0.4,296,-5.4,121.391055,31.164473,20100714104934,0460,0000,1878,0873,00,,20100714104934,000C",
		want: prototest.Result{UniqueID: "135790246811220", Ack: "+SACK:000C$", Positions: []prototest.Position{
			{Time: at("20100714104934"), Valid: true, Lat: 31.164473, Lon: 121.391055, Speed: 0.2159827213822894, Course: 296, Altitude: -5.4,
				Attributes: model.Attributes{"hdop": 2, "type": "GCR"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(2163), "locationAreaCode": int64(6264), "mobileCountryCode": 460, "mobileNetworkCode": 0}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 45
		frame: "+RESP:GTHBM,0F0100,135790246811220,,,10,1,1,4.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,2000.0,20090214093254,11F0$",
		want: prototest.Result{UniqueID: "135790246811220", Ack: "+SACK:11F0$", Positions: []prototest.Position{
			{Time: at("20090214013254"), Valid: true, Lat: 31.222073, Lon: 121.354335, Speed: 2.321814254859611, Course: 92, Altitude: 70,
				Attributes: model.Attributes{"hdop": 1, "type": "HBM"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(24897), "locationAreaCode": int64(6360), "mobileCountryCode": 460, "mobileNetworkCode": 0}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 46
		frame: "+BUFF:GTFRI,210101,863286020016706,,,10,1,1,,,,49.903915,40.391669,20140818105815,,,,,,,,,,,210100,,,,,000C$",
		want: prototest.Result{UniqueID: "863286020016706", Ack: "+SACK:000C$", Positions: []prototest.Position{
			{Time: at("20140818105815"), Valid: true, Lat: 40.391669, Lon: 49.903915, Speed: 0.0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"archive": true, "hdop": 1.0, "ignition": true, "in1": false, "in2": false, "input": int64(1), "out1": false, "out2": false, "output": int64(0), "type": "FRI"},
				Network:    nil},
		}},
	},
	{ // 47
		frame: "+BUFF:GTBPL,1A0800,860599000773978,GL300,3.55,0,0.0,0,257.1,60.565437,56.818277,20161006070553,,,,,204.7,20161006071028,0C75$",
		want: prototest.Result{UniqueID: "860599000773978", Ack: "+SACK:0C75$", Positions: []prototest.Position{
			{Time: at("20161006070553"), Valid: true, Lat: 56.818277, Lon: 60.565437, Speed: 0.0, Course: 0, Altitude: 257.1,
				Attributes: model.Attributes{"alarm": "lowBattery", "archive": true, "hdop": 0, "type": "BPL"},
				Network:    nil},
		}},
	},
	{ // 48
		frame: "+RESP:GTTEM,1A0102,860599000000448,,3,33,0,5.8,0,33.4,117.201191,31.832502,20130109061410,0460,0000,5678,2079,,20130109061517,0091$",
		want: prototest.Result{UniqueID: "860599000000448", Ack: "+SACK:0091$", Positions: []prototest.Position{
			{Time: at("20130109061410"), Valid: true, Lat: 31.832502, Lon: 117.201191, Speed: 3.131749460043196, Course: 0, Altitude: 33.4,
				Attributes: model.Attributes{"alarm": "temperature", "hdop": 0, "type": "TEM"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(8313), "locationAreaCode": int64(22136), "mobileCountryCode": 460, "mobileNetworkCode": 0}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 49
		frame: "+RESP:GTJDR,0A0102,135790246811220,,0,4.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,20090214093254,11F0$",
		want: prototest.Result{UniqueID: "135790246811220", Ack: "+SACK:11F0$", Positions: []prototest.Position{
			{Time: at("20090214013254"), Valid: true, Lat: 31.222073, Lon: 121.354335, Speed: 2.321814254859611, Course: 92, Altitude: 70,
				Attributes: model.Attributes{"alarm": "jamming", "batteryLevel": 0, "hdop": 0, "type": "JDR"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(24897), "locationAreaCode": int64(6360), "mobileCountryCode": 460, "mobileNetworkCode": 0}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 50
		frame: "+RESP:GTJDS,0A0102,135790246811220,,2,0,4.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,20090214093254,11F0$",
		want: prototest.Result{UniqueID: "135790246811220", Ack: "+SACK:11F0$", Positions: []prototest.Position{
			{Time: at("20090214013254"), Valid: true, Lat: 31.222073, Lon: 121.354335, Speed: 2.321814254859611, Course: 92, Altitude: 70,
				Attributes: model.Attributes{"alarm": "jamming", "batteryLevel": 0, "hdop": 0, "type": "JDS"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(24897), "locationAreaCode": int64(6360), "mobileCountryCode": 460, "mobileNetworkCode": 0}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 51
		frame: "+RESP:GTVER,1A0800,860599000773978,GL300,GL300,0A03,0103,20161007041531,10F8$",
		want: prototest.Result{UniqueID: "860599000773978", Ack: "+SACK:10F8$", Positions: []prototest.Position{
			{Time: at("20161007041531"), Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0.0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"deviceType": "GL300", "type": "VER", "versionFw": int64(2563), "versionHw": int64(259)},
				Network:    nil},
		}},
	},
	{ // 52
		frame: "+ACK:GTHBD,1A0401,135790246811220,,20100214093254,11F0",
		want:  prototest.Result{UniqueID: "135790246811220", Reply: "+SACK:GTHBD,1A0401,11F0$", Positions: []prototest.Position{}},
	},
	{ // 53
		frame: "+ACK:GTRTO,1A0800,860599000773978,GL300,VER,FFFF,20161006053520,0C19",
		want:  prototest.Result{UniqueID: "860599000773978", Ack: "+SACK:0C19$", CommandResult: "+ACK:GTRTO,1A0800,860599000773978,GL300,VER,FFFF,20161006053520,0C19", Positions: []prototest.Position{}},
	},
	{ // 54
		frame: "+ACK:GTJDC,0A0102,135790246811220,,0016,20090214093254,11F0",
		want:  prototest.Result{UniqueID: "135790246811220", Ack: "+SACK:11F0$", CommandResult: "+ACK:GTJDC,0A0102,135790246811220,,0016,20090214093254,11F0", Positions: []prototest.Position{}},
	},
	{ // 55
		frame: "+ACK:GTGEO,1A0102,135790246811220,,0,0008,20100310172830,11F0",
		want:  prototest.Result{UniqueID: "135790246811220", Ack: "+SACK:11F0$", CommandResult: "+ACK:GTGEO,1A0102,135790246811220,,0,0008,20100310172830,11F0", Positions: []prototest.Position{}},
	},
	{ // 56
		frame: "2b000038000865134050947226820300030000216a3ed6f101895000521629fa8b28f402ac1a8e6a3ed6f100001600000010f505010ff824", binary: true,
		want: prototest.Result{UniqueID: "865134050947226", Positions: []prototest.Position{
			{Time: at("20260626194553"), Valid: true, Lat: 44.833422, Lon: -91.543308, Speed: 0.0, Course: 0, Altitude: 434.1,
				Attributes: model.Attributes{"hdop": 2.2, "sat": 5},
				Network:    nil},
		}},
	},
	{ // 57
		frame: "2b4556542d00fc1fbf0063450102020956325403000343056437f8220700000200000000010000160100f2007eff75a1f0025c6b1a07e1080108241a02680003189c1ac500000000000002100800000000000000000007e1080108241a19e24e4e0d0a", binary: true,
		want: prototest.Result{UniqueID: "6211119207959184133", Positions: []prototest.Position{
			{Time: at("20170801083626"), Valid: false, Lat: 39.611162, Lon: -9.068048, Speed: 304.15766738660903, Course: 242, Altitude: 126,
				Attributes: model.Attributes{"batteryLevel": 100, "hdop": 0, "power": 14.328, "sat": 7, "versionFw": "521"},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(6853), "locationAreaCode": int64(6300), "mobileCountryCode": 616, "mobileNetworkCode": 3}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 58
		frame: "2b5253500300fc1fff0064450102020867623130302d446f642f442105007018217345005f010100000001100045073c4d4101db86bd07e106130b2b0f0460000018770013000000030000000106020f2300002714301107e106130b2b1003424efb0d0a", binary: true,
		want: prototest.Result{UniqueID: "7449570816660685935", Positions: []prototest.Position{
			{Time: at("20170619114315"), Valid: true, Lat: 31.164093, Lon: 121.392449, Speed: 0.0, Course: 272, Altitude: 69,
				Attributes: model.Attributes{"batteryLevel": 100, "hdop": 1, "power": 12.1, "sat": 5},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(19), "locationAreaCode": int64(6263), "mobileCountryCode": 1120, "mobileNetworkCode": 0}}, "considerIp": false, "radioType": "gsm"}},
		}},
	},
	{ // 59
		frame: "2b494e4601fd7f0076676231303000000045010202090104020500004100054007e107150b061d0000003f010e02580000000000d0312a1013648935103226313921591f1200000000000302680003189c1ac3001b02680003189c1ac4000d02680003189c1ac5001207e107150b0d3704f658060d0a", binary: true,
		want: prototest.Result{UniqueID: "3544385683298731265", Positions: []prototest.Position{
			{Time: prototest.Now, Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0.0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"sat": 0, "versionFw": "260"},
				Network:    nil},
		}},
	},
	{ // 60
		frame: "2b41434b017f244501010108676231303000000000ffff07e1070b03112d054dfe030d0a", binary: true,
		want: prototest.Result{UniqueID: "", Positions: []prototest.Position{}},
	},
}
