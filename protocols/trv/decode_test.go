package trv

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func testProtocol() *Protocol { return &Protocol{now: prototest.Clock} }

// The shared frames (samples-next.md section 7), as sent on the wire.
const (
	frameLogin     = "IWAP00355932600077007,8901240204123656505f,310240202365650#"
	framePressure  = "IWAPHT,60,130,85#"
	frameCells     = "IWAP02,zh_cn,0,6,260,1,11002|39252|9,11002|35112|23,11002|11043|24,11002|39253|24,11002|13751|24,11018|8102|26,3,a|c0-4a-00-b6-9c-f5|64&a|c0-4a-00-b6-9c-f5|64&a|18-a6-f7-92-35-da|84#"
	frameAP10      = "IWAP10080524A2232.9806N11404.9355E000.1061830323.8706000908000502,460,0,9520,3671,00,zh-cn,00,HOME|74-DE-2B-44-88-8C|97&HOME1|74-DE-2B-44-88-8C|97&HOME2|74-DE-2B-44-88-8C|97&HOME3|74-DE-2B-44-88-8C|97#"
	frameHeartbeat = "IWAP03,06000908000102,5555,30#"
	frameStatus    = "TRVCP01,06000908000102#"
	frameAP01      = "TRVAP01080524A2232.9806N11404.9355E000.1061830323.8706000908000102,460,0,9520,3671#"
	frameYP14      = "TRVYP14220217A5235.7885N00724.1840E000.0130919177.561000050660000200004,262,01,14635,52789,FritzBox7|DC-39-8F-7E-94-73|-89&FritzBox7|24-4E-5D-71-C3-9C|-90&MY_IOT|80-B4-F7-77-9C-7C|-81&MYAP|44-D4-F7-77-9C-7C|-80#"
	frameSOSNums   = "IWAP12,080835,+491773329827,+491773329826,+49306618438#"
	frameContacts  = "IWAP14,080835,004e0069006b00750054005200410058|+4952032960728,004600720061006e006b|+4952034488,00480061006e00640079|+491725244115,,,,,,,#"
	frameTRVLogin  = "TRVAP00352121088015548#"
)

// shared lists every shared frame, login first, for the stream tests.
var shared = []string{frameLogin, framePressure, frameCells, frameAP10, frameHeartbeat, frameStatus, frameAP01,
	frameYP14, frameSOSNums, frameContacts}

func wantNetwork(towers []map[string]any, aps ...map[string]any) map[string]any {
	n := map[string]any{"radioType": "gsm", "considerIp": false}
	if towers != nil {
		n["cellTowers"] = towers
	}
	if aps != nil {
		n["wifiAccessPoints"] = aps
	}
	return n
}

func towers(t ...map[string]any) []map[string]any { return t }

func ap(mac string, rssi int) map[string]any {
	return map[string]any{"macAddress": mac, "signalStrength": rssi}
}

func cell(mcc, mnc, lac, cid int) map[string]any {
	return map[string]any{"mobileCountryCode": mcc, "mobileNetworkCode": mnc, "locationAreaCode": lac, "cellId": cid}
}

func cellRSSI(lac, cid, rssi int) map[string]any {
	c := cell(260, 1, lac, cid)
	c["signalStrength"] = rssi
	return c
}

var home = ap("74:DE:2B:44:88:8C", 97)

const kph = 1 / 1.852

var fix2008 = time.Date(2008, 5, 24, 6, 18, 30, 0, time.UTC)

func TestDecodeShared(t *testing.T) {
	check := prototest.Checker{Protocol: Name, SpeedTolerance: 1e-9}
	tests := []struct {
		name, frame string
		want        prototest.Result
	}{
		{"AP00 login", frameLogin, prototest.Result{UniqueID: "355932600077007", Reply: "IWBP00,20240506070809,0#"}},
		{"APHT blood pressure", framePressure, prototest.Result{Ack: "IWBPHT#", Positions: []prototest.Position{{
			Time: prototest.Now, Outdated: true,
			Attributes: model.Attributes{"heartRate": 60, "pressureSystolic": 130, "pressureDiastolic": 85}}}}},
		{"AP02 cells and Wi-Fi", frameCells, prototest.Result{Ack: "IWBP02#", Positions: []prototest.Position{{
			Time: prototest.Now, Outdated: true, Attributes: model.Attributes{},
			Network: wantNetwork(towers(cellRSSI(11002, 39252, 9), cellRSSI(11002, 35112, 23), cellRSSI(11002, 11043, 24),
				cellRSSI(11002, 39253, 24), cellRSSI(11002, 13751, 24), cellRSSI(11018, 8102, 26)),
				ap("c0:4a:00:b6:9c:f5", 64), ap("c0:4a:00:b6:9c:f5", 64), ap("18:a6:f7:92:35:da", 84))}}}},
		{"AP10 position with Wi-Fi", frameAP10, prototest.Result{Ack: "IWBP10#", Positions: []prototest.Position{{
			Time: fix2008, Valid: true, Lat: 22.54968, Lon: 114.08226, Speed: 0.1 * kph, Course: 323.87,
			Attributes: model.Attributes{"rssi": 60, "sat": 9, "battery": 80, "armed": false, "mode": 2},
			Network:    wantNetwork(towers(cell(460, 0, 9520, 3671)), home, home, home, home)}}}},
		{"AP03 heartbeat", frameHeartbeat, prototest.Result{Ack: "IWBP03#", Positions: []prototest.Position{{
			Time: prototest.Now, Outdated: true,
			Attributes: model.Attributes{"rssi": 60, "sat": 9, "batteryLevel": 80, "steps": 5555}}}}},
		{"CP01 status", frameStatus, prototest.Result{Ack: "TRVDP01#", Positions: []prototest.Position{{
			Time: prototest.Now, Outdated: true,
			Attributes: model.Attributes{"rssi": 60, "sat": 9, "battery": 80, "armed": true, "mode": 2}}}}},
		{"AP01 position", frameAP01, prototest.Result{Ack: "TRVBP01#", Positions: []prototest.Position{{
			Time: fix2008, Valid: true, Lat: 22.54968, Lon: 114.08226, Speed: 0.1 * kph, Course: 323.87,
			Attributes: model.Attributes{"rssi": 60, "sat": 9, "battery": 80, "armed": true, "mode": 2},
			Network:    wantNetwork(towers(cell(460, 0, 9520, 3671)))}}}},
		{"YP14 position with signed Wi-Fi signals", frameYP14, prototest.Result{Ack: "TRVZP14#", Positions: []prototest.Position{{
			Time: time.Date(2022, 2, 17, 13, 9, 19, 0, time.UTC), Valid: true, Lat: 52.596475, Lon: 7.403067, Course: 177.56,
			Attributes: model.Attributes{"rssi": 100, "sat": 5, "battery": 66, "mode": 2},
			Network: wantNetwork(towers(cell(262, 1, 14635, 52789)), ap("DC:39:8F:7E:94:73", -89), ap("24:4E:5D:71:C3:9C", -90),
				ap("80:B4:F7:77:9C:7C", -81), ap("44:D4:F7:77:9C:7C", -80))}}}},
		{"AP12 answer to SOS numbers", frameSOSNums, prototest.Result{
			CommandResult: "AP12,080835,+491773329827,+491773329826,+49306618438"}},
		{"AP14 answer to the contact list", frameContacts, prototest.Result{
			CommandResult: "AP14,080835,004e0069006b00750054005200410058|+4952032960728,004600720061006e006b|+4952034488,00480061006e00640079|+491725244115,,,,,,,"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { check.Decode(t, testProtocol().Decode, tt.frame, tt.want) })
	}
}

// The rest of Traccar's test frames: other makers, alarms, health values,
// the status settings tail and the frames as its frame decoder hands them
// on (without '#').
func TestDecodeMore(t *testing.T) {
	check := prototest.Checker{Protocol: Name, SpeedTolerance: 1e-9}
	tests := []struct {
		name, frame string
		want        prototest.Result
	}{
		{"TRV login", frameTRVLogin, prototest.Result{UniqueID: "352121088015548", Reply: "TRVBP00#"}},
		{"login without '#'", "IWAP00353456789012345", prototest.Result{UniqueID: "353456789012345",
			Reply: "IWBP00,20240506070809,0#"}},
		{"journal echo", "IWAPXL,080835", prototest.Result{CommandResult: "APXL,080835"}},
		{"TRV AP14 location request", "TRVAP14,1,2#", prototest.Result{Reply: "TRVBP14,0.000,0.000#"}},
		{"AP10 SOS", "IWAP10080524A2232.9806N11404.9355E000.1061830323.8706000908000502,460,0,9520,3671,01,zhcn,00,HOME|74-DE-2B-44-88-8C|97",
			prototest.Result{Ack: "IWBP10#", Positions: []prototest.Position{{
				Time: fix2008, Valid: true, Lat: 22.54968, Lon: 114.08226, Speed: 0.1 * kph, Course: 323.87,
				Attributes: model.Attributes{"rssi": 60, "sat": 9, "battery": 80, "armed": false, "mode": 2, "alarm": "sos"},
				Network:    wantNetwork(towers(cell(460, 0, 9520, 3671)), home)}}}},
		{"AP49 heart rate", "IWAP49,68", prototest.Result{Ack: "IWBP49#", Positions: []prototest.Position{{
			Time: prototest.Now, Outdated: true, Attributes: model.Attributes{"heartRate": 68}}}}},
		{"APHP health with blanks", "IWAPHP,60,130,85,95,90,36.5,,,,,,,", prototest.Result{Ack: "IWBPHP#", Positions: []prototest.Position{{
			Time: prototest.Now, Outdated: true, Attributes: model.Attributes{"heartRate": 60, "pressureSystolic": 130,
				"pressureDiastolic": 85, "spo2": 95, "bloodSugar": 90.0, "temperature": 36.5}}}}},
		{"AP50 temperature", "IWAP50,36.7,90", prototest.Result{Ack: "IWBP50#", Positions: []prototest.Position{{
			Time: prototest.Now, Outdated: true, Attributes: model.Attributes{"temperature": 36.7, "batteryLevel": 90}}}}},
		{"YP03 with ACC and arming", "TRVYP03190805A1828.9242N07353.9423E000.0150716029.0010000810020201112,404,27,184,10229",
			prototest.Result{Ack: "TRVZP03#", Positions: []prototest.Position{{
				Time: time.Date(2019, 8, 5, 15, 7, 16, 0, time.UTC), Valid: true, Lat: 18.48207, Lon: 73.899038, Course: 29,
				Attributes: model.Attributes{"rssi": 100, "sat": 8, "battery": 100, "ignition": false, "armed": false, "mode": 1},
				Network:    wantNetwork(towers(cell(404, 27, 184, 10229)))}}}},
		{"AP01 ACC on", "TRVAP01160211A2544.5118N05553.7586E105.711185941.52010001010010000,424,030,3011,27003",
			prototest.Result{Ack: "TRVBP01#", Positions: []prototest.Position{{
				Time: time.Date(2016, 2, 11, 11, 18, 59, 0, time.UTC), Valid: true, Lat: 25.741863, Lon: 55.895977,
				Speed: 105.7 * kph, Course: 41.52,
				Attributes: model.Attributes{"rssi": 100, "sat": 10, "battery": 100, "ignition": true},
				Network:    wantNetwork(towers(cell(424, 30, 3011, 27003)))}}}},
		{"CP01 with settings", "TRVCP01,07800010010000602001206001120124", prototest.Result{Ack: "TRVDP01#", Positions: []prototest.Position{{
			Time: prototest.Now, Outdated: true,
			Attributes: model.Attributes{"rssi": 78, "sat": 0, "battery": 100, "ignition": true, "blocked": false, "charge": false}}}}},
		{"CP01 with a short tail", "TRVCP01,100007100000001020151060011", prototest.Result{Ack: "TRVDP01#", Positions: []prototest.Position{{
			Time: prototest.Now, Outdated: true, Attributes: model.Attributes{"rssi": 100, "sat": 7, "battery": 100}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { check.Decode(t, testProtocol().Decode, tt.frame, tt.want) })
	}
}

func TestUnsupported(t *testing.T) {
	for _, frame := range []string{"IWAP07,1,2,3#", "IWAPXY,70,120#", "TRVBP01#"} {
		res, err := testProtocol().Decode(&protocols.Conn{}, []byte(frame))
		if err != nil || res.Unsupported == "" || res.Reply != nil || res.Ack != nil || len(res.Positions) != 0 {
			t.Errorf("%q: %+v, %v; want unsupported, unanswered", frame, res, err)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	prototest.DecodeRejects(t, testProtocol().Decode, nil,
		"", "#", "iwap00123#", "IWAP00#", "IWAP00,123#", "IWAP00123456789012345678901#",
		"TRVAP01080524A2232.9806N11404.9355E000.1061830323.8706000908000102#",
		"TRVAP01080524A9932.9806N11404.9355E000.1061830323.8706000908000102,460,0,9520,3671#",
		"TRVAP01080524A2232.9806N11404.9355E000.1061830323.87060009080001021234567,460,0,9520,3671#",
		"TRVAP01080532A2232.9806N11404.9355E000.1061830323.8706000908000102,460,0,9520,3671#",
		"TRVAP01080524X2232.9806N11404.9355E000.1061830323.8706000908000102,460,0,9520,3671#",
		"TRVAP01080524A2232.9806N11404.9355E000.1061830323.8706000908000102,460,0,x,3671#",
		"TRVCP01#", "TRVCP010600090800#", "IWAP03,0600090800,5,1#", "IWAP03,06000908000102#",
		"IWAP02,zh_cn,0,1,260,1,1|2#", "IWAP02,zh_cn,0,1,260,x,1|2|3,0#",
		"IWAP49,x#", "IWAP49#", "IWAP49,,#", "IWAPHT,60.5#",
	)
}

// Encode repeats the maker the device used: the state a frame leaves.
func TestDecodeKeepsMaker(t *testing.T) {
	c := &protocols.Conn{}
	for _, tt := range []struct{ frame, maker string }{{frameLogin, "IW"}, {frameAP01, "TRV"}} {
		if _, err := testProtocol().Decode(c, []byte(tt.frame)); err != nil {
			t.Fatal(err)
		}
		if s, _ := c.State.(session); s.maker != tt.maker {
			t.Errorf("after %q maker %q, want %q", tt.frame, s.maker, tt.maker)
		}
	}
}
