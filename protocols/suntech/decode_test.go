package suntech

import (
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// The 24 shared frames of samples-next.md section 3 (Traccar's test at
// commit 9e5c458), without the '\r' that ends them on the wire.
const (
	zipHex     = "02003210511340877028813f180c170016041051290c0635652d793653000038001a30e601665e560000000100750002712704000103"
	uexUniv    = "UEX;1610020241;03FFFFFF;161;3.0.9;0;20240506;15:52:55;00006697;724;11;4EDA;33;-5.129240;-42.797868;0.00;0.00;11;1;00000001;00000000;24;GTSL|6|1|0|22574684|1|\r\n;A7;;164;0;11.82"
	st4STT     = "ST410STT;109815653;445;03;16531;724;10;-77;6011;7;16273;724;10;7511;0;0;13903;724;10;6011;0;0;7671;724;10;7111;0;0;16533;724;10;6011;0;0;0;0;0;0;0;0;0;0;0;0;0;0;3.86;0;0098;1;003;;;;;;;;;"
	altUniv    = "ALT;0950030205;3FFFFF;95;1.0.11;0;20251001;19:34:41;02F2F402;334;20;5B11;28;+25.791061;-100.170745;0.00;0.00;17;1;00000000;00000000;134;1;1440,360,360,360;+23.0;0002;AABBCCDDEEFF"
	resUniv    = "RES;4309999001;04;02;TEST"
	bleUniv    = "BLE;1140000053;114;1.0.1;20211001;17:27:09;+28.433465;-82.565891;1;-43;-46;-41;ACB89523EF68;247;0;0"
	bsaUniv    = "BSA;0820012345;001FFF;82;1.0.0;1;20191203;17:00:51;+32.691615;-117.297160;1;-55;68:11:6A:FD:1A:A7;6AA5;1DE8"
	uexLegacy  = "ST300UEX;511331307;45;311;20210420;12:41:01;12361;-01.280825;-047.931773;000.000;000.00;16;1;0;12.54;000000;23;GTSL|6|1|0|9255143|2|;6F;000276;0.0;1;00000000000000;0"
	binaryHex  = "82004d05800000553fffff360100100114020410293902ccccf102dc007b00053c00476fa18469e87f000000000b0100003b00081d00000113f3f8010000049e00000000000000001d00000113f3f801"
	st600STT   = "ST600STT;107850496;20;419;20180227;14:30:45;00462b08;736;3;4524;50;-16.479091;-068.119119;000.346;000.00;4;1;0;13.89;000000;1;0223;000003;0.0;0;0.00"
	sttUniv    = "STT;6009999006;3FFFFF;26;398;0;20170827;20:04:37;087d4760;310;410;0ba0;23;+40.123420;-074.995971;000.031;000.00;8;1;00000001;00000000;1;1;0006"
	st300STT   = "ST300STT;205589913;05;527;20170304;02:21:33;be139;-25.398868;-049.325636;000.476;000.00;6;1;427;12.57;100000010;1;0172;017.159;0;002.327;12;4.0"
	alive      = "SA200ALV;317652"
	st9Alert   = "ST910;Alert;123456;410;20141018;18:30:12;+37.478774;+126.889690;000.000;000.00;0;4.0;1;6002;02;0;0310000100;450;01;-282;70;255;3;0"
	sa200STT   = "SA200STT;317652;042;20120718;15:37:12;16d41;-15.618755;-056.083241;000.024;000.00;8;1;41548;12.17;100000;2;1979"
	sa200EMG   = "SA200EMG;317652;042;20120718;15:35:41;16d41;-15.618740;-056.083252;000.034;000.00;8;1;41548;12.17;110000;1"
	sa200ALT   = "SA200ALT;317652;042;20120829;14:25:58;16d41;-15.618770;-056.083242;000.029;000.00;0;0;2404240;0.00;000000;10"
	st9Loc     = "ST910;Location;344506;017;20130727;14:10:00;-25.398714;-049.296818;000.187;000.00;1;4.32;1;1;0001"
	st9Emg     = "ST910;Emergency;205283272;500;20150716;19:12:01;-23.659019;-046.695403;000.602;000.00;0;4.2;1;1;02;10820;2fdb090736;724;05;0;2311;255;0;100"
	cmdRes     = "ST300CMD;Res;511848119;315;PresetA;NTW;0;eseye.com;user;pass;rastreamento.inviocar.com;6011;;;;;RPT;1800;80;80;3;1200;0;0;0;0;EVT;0;10;0;12;3;9;1;30;0;5;7;1;0;0;0;0;0;0;0;9;9;0;0;0;GSM;0;;;;;0;;;;;;;;SVC;1;200;0;0;0;0;1;0;1;0;0;0;0;ADP;T;T;0;;0;0;0;0;0;0;MSR;600;0.10;0.10;0.70;MBV;0.00;0.00;17.20;9.00;18.00;0.00;0.00;NPT;25.0;0;30;0;0;500;300;5;10;100;5;180;100;1;DEV;0;0;0;1;0;0;0;"
	cmdError   = "-Error"
	st9Cell    = "ST910;Location;560266;500;20161207;21:33:11;af910be101;-25.504234;-049.278003;000.080;000.00;1;10054889;70;1;1;1311;02;724;06;-317;3041;2;10;92"
	st300EVT   = "ST300EVT;205173382;07;564;20160322;23:23:18;232e19;+19.288278;-099.128750;000.122;000.00;9;1;478391;11.53;000100;2;1;9498;079324;4.3;1;0.00;0.00;0.00;00000000000000;0;2898E16006000058:-20.8;2861626006000039:+2.5;:"
	travel     = "ST300HTE;511050566;45;308;20200909;13:38:38;0;12.50;001354;0.0;1;0;1;1;0;-27.636632;-052.277933;-27.636675;-052.277947;000.000;002.296;0;00000000000000"
	kph        = 1 / 1.852
	speedSlack = 1e-9
)

var now = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

func testProtocol() *Protocol { return &Protocol{now: func() time.Time { return now }} }

func at(s string) time.Time {
	t, err := time.Parse(time.DateTime, s)
	if err != nil {
		panic(err)
	}
	return t
}

var checker = prototest.Checker{Protocol: Name, SpeedTolerance: speedSlack}

type attrs = model.Attributes

func TestDecode(t *testing.T) {
	io := func(ign, in1, in2, in3, out1, out2 bool) attrs {
		return attrs{"ignition": ign, "in1": in1, "in2": in2, "in3": in3, "out1": out1, "out2": out2}
	}
	with := func(a attrs, more attrs) attrs {
		out := attrs{}
		for k, v := range a {
			out[k] = v
		}
		for k, v := range more {
			out[k] = v
		}
		return out
	}
	cases := []struct {
		name  string
		frame string
		want  prototest.Result
	}{
		{"zip", string(prototest.Unhex(t, zipHex)), prototest.Result{UniqueID: "511340877", Positions: []prototest.Position{{
			Time: at("2024-12-23 00:22:04"), Valid: true, Lat: -12.063565, Lon: -45.793653, Speed: 0.38 * kph, Course: 26.3,
			Attributes: with(io(false, false, false, false, false, false), attrs{"odometer": int64(23486038), "power": 0.0, "event": int64(1)})}}}},
		{"universal UEX", uexUniv, prototest.Result{UniqueID: "1610020241", Positions: []prototest.Position{{
			Time: at("2024-05-06 15:52:55"), Valid: true, Lat: -5.129240, Lon: -42.797868,
			Attributes: attrs{"type": "UEX", "versionFw": "3.0.9", "archive": true, "rssi": int64(33), "sat": int64(11), "ignition": true,
				"input": int64(1), "output": int64(0), "driverUniqueId": "22574684", "assign1": "164", "assign2": "0", "assign3": "11.82"},
			Network: network(tower(724, 11, 0x4EDA, 0x6697, 0))}}}},
		{"ST4 STT without a fix", st4STT, prototest.Result{UniqueID: "109815653", Positions: []prototest.Position{{
			Time: now, Outdated: true,
			Attributes: attrs{"type": "STT", "versionFw": "445", "battery": 3.86, "archive": true, "index": int64(98), "status": int64(1)},
			Network: network(tower(724, 10, 6011, 16531, -77), tower(724, 10, 7511, 16273, 0), tower(724, 10, 6011, 13903, 0),
				tower(724, 10, 7111, 7671, 0), tower(724, 10, 6011, 16533, 0))}}}},
		{"universal ALT", altUniv, prototest.Result{UniqueID: "0950030205", Positions: []prototest.Position{{
			Time: at("2025-10-01 19:34:41"), Valid: true, Lat: 25.791061, Lon: -100.170745,
			Attributes: attrs{"type": "ALT", "versionFw": "1.0.11", "archive": true, "rssi": int64(28), "sat": int64(17), "ignition": false,
				"input": int64(0), "output": int64(0), "alertModifier": "1", "alertData": "1440,360,360,360",
				"assign1": "+23.0", "assign2": "0002", "assign3": "AABBCCDDEEFF"},
			Network: network(tower(334, 20, 0x5B11, 0x02F2F402, 0))}}}},
		{"universal RES", resUniv, prototest.Result{UniqueID: "4309999001", CommandResult: "04;02;TEST"}},
		{"universal BLE", bleUniv, prototest.Result{UniqueID: "1140000053", Positions: []prototest.Position{{
			Time: at("2021-10-01 17:27:09"), Valid: true, Lat: 28.433465, Lon: -82.565891,
			Attributes: attrs{"type": "BLE", "versionFw": "1.0.1", "tag1Rssi": int64(-43), "tag1Id": "ACB89523EF68",
				"tag1Samples": int64(247), "tag1Major": int64(0), "tag1Minor": int64(0)}}}}},
		{"legacy UEX", uexLegacy, prototest.Result{UniqueID: "511331307", Positions: []prototest.Position{{
			Time: at("2021-04-20 12:41:01"), Valid: true, Lat: -1.280825, Lon: -47.931773,
			Attributes: with(io(false, false, false, false, false, false), attrs{"type": "UEX", "versionFw": "311", "sat": int64(16),
				"odometer": int64(0), "power": 12.54, "driverUniqueId": "9255143",
				"hours": int64(276 * 60000), "battery": 0.0})}}}},
		{"binary", string(prototest.Unhex(t, binaryHex)), prototest.Result{UniqueID: "0580000055", Positions: []prototest.Position{{
			Time: at("2020-02-04 16:41:57"), Valid: true, Lat: 4.681633, Lon: -74.049663,
			Attributes: attrs{"versionFw": "1.0.16", "rssi": int64(60), "sat": int64(11), "ignition": false, "input": int64(0),
				"output": int64(0), "driverUniqueId": "1d00000113f3f801"}}}}},
		{"ST600 STT", st600STT, prototest.Result{UniqueID: "107850496", Positions: []prototest.Position{{
			Time: at("2018-02-27 14:30:45"), Valid: true, Lat: -16.479091, Lon: -68.119119, Speed: 0.346 * kph,
			Attributes: with(io(false, false, false, false, false, false), attrs{"type": "STT", "versionFw": "419", "sat": int64(4),
				"odometer": int64(0), "power": 13.89, "status": int64(1), "index": int64(223),
				"hours": int64(3 * 60000), "battery": 0.0, "archive": true}),
			Network: network(tower(736, 3, 0x4524, 0x462b08, 50))}}}},
		{"universal STT", sttUniv, prototest.Result{UniqueID: "6009999006", Positions: []prototest.Position{{
			Time: at("2017-08-27 20:04:37"), Valid: true, Lat: 40.123420, Lon: -74.995971, Speed: 0.031 * kph,
			Attributes: attrs{"type": "STT", "versionFw": "398", "archive": true, "rssi": int64(23), "sat": int64(8), "ignition": true,
				"input": int64(1), "output": int64(0), "mode": int64(1), "reason": int64(1), "index": int64(6)},
			Network: network(tower(310, 410, 0x0ba0, 0x087d4760, 0))}}}},
		{"ST300 STT", st300STT, prototest.Result{UniqueID: "205589913", Positions: []prototest.Position{{
			Time: at("2017-03-04 02:21:33"), Valid: true, Lat: -25.398868, Lon: -49.325636, Speed: 0.476 * kph,
			Attributes: with(io(true, false, false, false, false, false), attrs{"type": "STT", "versionFw": "527", "sat": int64(6),
				"odometer": int64(427), "power": 12.57, "status": int64(1), "index": int64(172)})}}}},
		{"keep-alive", alive, prototest.Result{UniqueID: "317652"}},
		{"ST910 alert", st9Alert, prototest.Result{UniqueID: "123456", Positions: []prototest.Position{{
			Time: at("2014-10-18 18:30:12"), Lat: 37.478774, Lon: 126.889690,
			Attributes: attrs{"alarm": "general", "versionFw": "410"}}}}},
		{"SA200 STT (exact in Traccar)", sa200STT, prototest.Result{UniqueID: "317652", Positions: []prototest.Position{{
			Time: at("2012-07-18 15:37:12"), Valid: true, Lat: -15.618755, Lon: -56.083241, Speed: 0.024 * kph,
			Attributes: with(io(true, false, false, false, false, false), attrs{"type": "STT", "versionFw": "042", "sat": int64(8),
				"odometer": int64(41548), "power": 12.17, "status": int64(2), "index": int64(1979)})}}}},
		{"SA200 EMG", sa200EMG, prototest.Result{UniqueID: "317652", Positions: []prototest.Position{{
			Time: at("2012-07-18 15:35:41"), Valid: true, Lat: -15.618740, Lon: -56.083252, Speed: 0.034 * kph,
			Attributes: with(io(true, true, false, false, false, false), attrs{"type": "EMG", "versionFw": "042", "sat": int64(8),
				"odometer": int64(41548), "power": 12.17, "alarm": "sos"})}}}},
		{"SA200 ALT", sa200ALT, prototest.Result{UniqueID: "317652", Positions: []prototest.Position{{
			Time: at("2012-08-29 14:25:58"), Lat: -15.618770, Lon: -56.083242, Speed: 0.029 * kph,
			Attributes: with(io(false, false, false, false, false, false), attrs{"type": "ALT", "versionFw": "042", "sat": int64(0),
				"odometer": int64(2404240), "power": 0.0})}}}},
		{"ST910 location", st9Loc, prototest.Result{UniqueID: "344506", Positions: []prototest.Position{{
			Time: at("2013-07-27 14:10:00"), Valid: true, Lat: -25.398714, Lon: -49.296818, Speed: 0.187 * kph,
			Attributes: attrs{"versionFw": "017"}}}}},
		{"ST910 emergency", st9Emg, prototest.Result{UniqueID: "205283272", Positions: []prototest.Position{{
			Time: at("2015-07-16 19:12:01"), Lat: -23.659019, Lon: -46.695403, Speed: 0.602 * kph,
			Attributes: attrs{"versionFw": "500", "alarm": "general"}}}}},
		{"command answer", cmdRes, prototest.Result{UniqueID: "511848119", CommandResult: strings.SplitN(cmdRes, ";", 4)[3]}},
		{"command error", cmdError, prototest.Result{CommandResult: "-Error"}},
		{"ST910 with a cell", st9Cell, prototest.Result{UniqueID: "560266", Positions: []prototest.Position{{
			Time: at("2016-12-07 21:33:11"), Valid: true, Lat: -25.504234, Lon: -49.278003, Speed: 0.08 * kph,
			Attributes: attrs{"versionFw": "500", "odometer": int64(10054889)}}}}},
		{"ST300 EVT", st300EVT, prototest.Result{UniqueID: "205173382", Positions: []prototest.Position{{
			Time: at("2016-03-22 23:23:18"), Valid: true, Lat: 19.288278, Lon: -99.128750, Speed: 0.122 * kph,
			Attributes: with(io(false, false, false, true, false, false), attrs{"type": "EVT", "versionFw": "564", "sat": int64(9),
				"odometer": int64(478391), "power": 11.53, "event": int64(2)})}}}},
		{"travel report", travel, prototest.Result{UniqueID: "511050566", Positions: []prototest.Position{{
			Time: now, Outdated: true, Attributes: attrs{"driverUniqueId": "00000000000000"}}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checker.Decode(t, testProtocol().Decode, tc.frame+"\r", tc.want)
		})
	}
}

func TestUnsupported(t *testing.T) {
	for _, f := range []string{bsaUniv, "CRR;0910000063;1;1;0150;", "ST300XYZ;205589913;1", "ST910;Other;123456"} {
		res, err := testProtocol().Decode(&protocols.Conn{}, []byte(f+"\r"))
		if err != nil || res.Unsupported == "" || len(res.Positions) != 0 {
			t.Errorf("%q: %+v, %v; want unsupported", f, res, err)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	prototest.DecodeRejects(t, testProtocol().Decode, nil,
		"", "HELLO;world", "ST300STT;abc;05", "ST300STT;205589913;05;527;2017030x;02:21:33",
		"STT;6009999006;3FFFFF;26", "ST910;Location;344506;017;20130727;14:10:00;-95.3;-049.2;0;0;1",
		zipHex[:40], "\x82\x00\x0c\x05\x80\x00\x00\x55\x3f\xff\xff\x36\x01")
}

// Settings-dependent tails Traccar reads with hbm=1: the hour meter and
// the driver id when the fields have that form.
func TestHourMeterTail(t *testing.T) {
	frame := "ST300STT;807469112;45;315;20231215;15:25:03;104147;-16.030168;-047.989150;000.000;000.00;19;1;8600;12.14;000010;1;0456;000373;4.1;1;01B54221010000;0\r"
	res, err := testProtocol().Decode(&protocols.Conn{}, []byte(frame))
	if err != nil || len(res.Positions) != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
	a := res.Positions[0].Attributes
	if a["hours"] != int64(373*60000) || a["battery"] != 4.1 || a["driverUniqueId"] != "01B54221010000" || a["archive"] != nil {
		t.Errorf("attributes %v", a)
	}
}
