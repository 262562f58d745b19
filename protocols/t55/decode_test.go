package t55

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func testProtocol() *Protocol { return &Protocol{now: prototest.Clock} }

// The shared frames (samples-next.md section 9), without their line end.
const (
	frameSIWMDID  = "$PSIWMDID,6Q5161694402B133*2F"
	frameDEVID    = "$DEVID,0x0103846677F21422*41"
	frameIOP      = "$GPIOP,01000000,00000000,0.00,0.00,0.00,0.00,4.69,4.24*49"
	frameIDRMC    = "660420156A0066AA$GPRMC,122806.0,A,0119.212178,N,10355.000942,E,0.0,,230119,0.0,E,A*27"
	frameIMEIEq   = "$IMEI=355797031609284"
	frameHexID    = "358244017671308"
	frameFID      = "$GPFID,ID123456ABC"
	framePGID     = "$PGID,359853000144328*0F"
	framePCPTI    = "$PCPTI,CradlePoint Test,184453,184453.0,6F*57"
	frameIMEI     = "IMEI 351467108700000"
	frameGGA      = "$GPGGA,000000.0,4337.200755,N,11611.955704,W,1,05,3.5,825.5,M,-11.0,M,,*6F" // checksum: 60
	frameRMC      = "$GPRMC,125735.000,A,6010.34349,N,02445.72838,E,1.0,101.7,050509,6.9,W,A*1F"
	frameIDGGA    = "123456789$GPGGA,000000.000,4610.1676,N,00606.4586,E,0,00,4.3,0.0,M,50.7,M,,0000*59" // checksum: 52
	frameCONNECT  = `$CONNECT,350030950116536,NETWORK,"Ben NL",RO,001,LAC,B02C,CID,521B,V,120.69`
	frameWMCSAlrm = "$ID,355826017981316,666,370,ALARM,0x00004000,IOP,M,48,GPSET,V,D,160517,T,161628,S,0:0,La,51.64175,N,Lo,2.21816,W,H,21.47,V,0.0,DD,0"
)

var shared = []string{frameSIWMDID, frameDEVID, frameIOP, frameIDRMC, frameIMEIEq, frameHexID, frameFID, framePGID,
	framePCPTI, frameIMEI, frameGGA, frameRMC, frameIDGGA, frameCONNECT, frameWMCSAlrm}

const kph = 1 / 1.852

// prototest.Now is 2024-05-06 07:08:09 UTC: a time of day 00:00:00 is
// that day's midnight.
var midnight = time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC)

func TestDecodeShared(t *testing.T) {
	check := prototest.Checker{Protocol: Name, SpeedTolerance: 1e-9}
	tests := []struct {
		name, frame string
		want        prototest.Result
	}{
		{"$PSIWMDID", frameSIWMDID, prototest.Result{UniqueID: "6Q5161694402B133"}},
		{"$DEVID", frameDEVID, prototest.Result{UniqueID: "0x0103846677F21422"}},
		{"$GPIOP", frameIOP, prototest.Result{Positions: []prototest.Position{{Time: prototest.Now, Outdated: true,
			Attributes: model.Attributes{"power": 4.69, "battery": 4.24}}}}},
		{"id before RMC", frameIDRMC, prototest.Result{UniqueID: "660420156A0066AA", Positions: []prototest.Position{{
			Time: time.Date(2019, 1, 23, 12, 28, 6, 0, time.UTC), Valid: true, Lat: 1.320203, Lon: 103.916682,
			Attributes: model.Attributes{}}}}},
		{"$IMEI=", frameIMEIEq, prototest.Result{UniqueID: "355797031609284"}},
		{"bare id", frameHexID, prototest.Result{UniqueID: "358244017671308"}},
		{"$GPFID", frameFID, prototest.Result{UniqueID: "ID123456ABC"}},
		{"$PGID", framePGID, prototest.Result{UniqueID: "359853000144328"}},
		{"$PCPTI", framePCPTI, prototest.Result{UniqueID: "CradlePoint Test"}},
		{"IMEI", frameIMEI, prototest.Result{UniqueID: "351467108700000"}},
		{"GGA with a wrong checksum", frameGGA, prototest.Result{ChecksumError: true, Positions: []prototest.Position{{
			Time: midnight, Valid: true, Lat: 43.620013, Lon: -116.199262, Altitude: 825.5,
			Attributes: model.Attributes{"sat": 5, "hdop": 3.5}}}}},
		{"RMC", frameRMC, prototest.Result{Positions: []prototest.Position{{
			Time: time.Date(2009, 5, 5, 12, 57, 35, 0, time.UTC), Valid: true, Lat: 60.172392, Lon: 24.762140,
			Speed: 1, Course: 101.7, Attributes: model.Attributes{}}}}},
		{"id before GGA without a fix, wrong checksum", frameIDGGA, prototest.Result{UniqueID: "123456789", ChecksumError: true,
			Positions: []prototest.Position{{Time: midnight, Lat: 46.16946, Lon: 6.107643,
				Attributes: model.Attributes{"sat": 0, "hdop": 4.3}}}}},
		{"$CONNECT", frameCONNECT, prototest.Result{UniqueID: "350030950116536"}},
		{"WMCS $ID alarm", frameWMCSAlrm, prototest.Result{UniqueID: "355826017981316", Positions: []prototest.Position{{
			Time: time.Date(2017, 5, 16, 16, 16, 28, 0, time.UTC), Lat: 51.64175, Lon: -2.21816, Course: 21.47,
			Attributes: model.Attributes{"status": "0x00004000", "alarm": "general", "satVisible": 0, "sat": 0}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { check.Decode(t, testProtocol().Decode, tt.frame, tt.want) })
	}
}

// The other sentence types of Traccar's test.
func TestDecodeMore(t *testing.T) {
	check := prototest.Checker{Protocol: Name, SpeedTolerance: 1e-9}
	tests := []struct {
		name, frame string
		want        prototest.Result
	}{
		{"GPTXT network", "$GPTXT,NET,1003,A1,-53,232 01*77", prototest.Result{UniqueID: "1003", Positions: []prototest.Position{{
			Time: prototest.Now, Outdated: true, Attributes: model.Attributes{"operator": "A1", "rssi": -53, "mcc": 232, "mnc": 1}}}}},
		{"PUBX", "$PUBX,00,130209.00,3650.51159,N,01346.10602,E,785.947,D3,4.1,5.2,0.163,87.43,-0.054,7.0,0.88,1.21,0.88,24,01012,0*6D",
			prototest.Result{UniqueID: "01012", ChecksumError: true, Positions: []prototest.Position{{
				Time: time.Date(2024, 5, 5, 13, 2, 9, 0, time.UTC), Valid: true, Lat: 36.841860, Lon: 13.768434,
				Altitude: 785.947, Accuracy: 4.1, Speed: 0.163 * kph, Course: 87.43,
				Attributes: model.Attributes{"index": 0, "hdop": 0.88, "vdop": 1.21, "sat": 24}}}}},
		{"GNRMC", "$GNRMC,164414.90,A,4650.5156500,N,01246.1059604,E,0.018,,091123,,,A,V*15", prototest.Result{
			Positions: []prototest.Position{{Time: time.Date(2023, 11, 9, 16, 44, 14, 0, time.UTC), Valid: true,
				Lat: 46.841928, Lon: 12.768433, Speed: 0.018, Attributes: model.Attributes{}}}}},
		{"GNGLL", "$GNGLL,4650.5156500,N,01246.1059604,E,164414.90,A,A*77", prototest.Result{
			Positions: []prototest.Position{{Time: time.Date(2024, 5, 5, 16, 44, 14, 0, time.UTC), Valid: true,
				Lat: 46.841928, Lon: 12.768433, Attributes: model.Attributes{}}}}},
		{"QZE", "QZE,868994033976700,35,28062020,113553,22.13673,114.57263,0,22,A,0", prototest.Result{UniqueID: "868994033976700",
			Positions: []prototest.Position{{Time: time.Date(2020, 6, 28, 11, 35, 53, 0, time.UTC), Valid: true,
				Lat: 22.13673, Lon: 114.57263, Course: 22, Attributes: model.Attributes{"event": 35, "ignition": false}}}}},
		{"RMC without a fix", "$GPRMC,192350.000,V,0000.0000,N,00000.0000,E,,,110318,,*12", prototest.Result{
			Positions: []prototest.Position{{Time: time.Date(2018, 3, 11, 19, 23, 50, 0, time.UTC), Outdated: true,
				Attributes: model.Attributes{}}}}},
		{"RMC extended", "$GPRMC,073446.000,A,1255.5125,N,07738.2948,E,0.00,0.53,080316,D*71,11,865733027593268,1,090,086,123,456",
			prototest.Result{UniqueID: "865733027593268", ChecksumError: true, Positions: []prototest.Position{{
				Time: time.Date(2016, 3, 8, 7, 34, 46, 0, time.UTC), Valid: true, Lat: 12.925208, Lon: 77.638247, Course: 0.53,
				Attributes: model.Attributes{"sat": 11, "ignition": true, "fuel": 90, "battery": 86, "io1": "123", "io2": "456"}}}}},
		{"id, slashes", "4711/022789000688081/$GPRMC,133343,A,5308.56325,N,1029.12850,E,0.000000,0.000000,290316,,*2A",
			prototest.Result{UniqueID: "022789000688081", Positions: []prototest.Position{{
				Time: time.Date(2016, 3, 29, 13, 33, 43, 0, time.UTC), Valid: true, Lat: 53.142721, Lon: 10.485475,
				Attributes: model.Attributes{}}}}},
		{"id, comma and spaced checksum", "990000561287964,$GPRMC,213516.0,A,4337.216791,N,11611.995877,W,0.0,335.4,181214,,,A * 72",
			prototest.Result{UniqueID: "990000561287964", Positions: []prototest.Position{{
				Time: time.Date(2014, 12, 18, 21, 35, 16, 0, time.UTC), Valid: true, Lat: 43.620280, Lon: -116.199931,
				Course: 335.4, Attributes: model.Attributes{}}}}},
		{"RMA", "$GPRMA,A,6000.5332,N,03020.5192,E,,,12.5,000.,11.,E*7", prototest.Result{ChecksumError: true,
			Positions: []prototest.Position{{Time: prototest.Now, Valid: true, Lat: 60.008887, Lon: 30.341987, Speed: 12.5,
				Attributes: model.Attributes{}}}}},
		{"TRCCR", "$TRCCR,20140111000000.000,A,60.000000,60.000000,0.00,0.00,0.00,50,*3a", prototest.Result{
			Positions: []prototest.Position{{Time: time.Date(2014, 1, 11, 0, 0, 0, 0, time.UTC), Valid: true, Lat: 60, Lon: 60,
				Attributes: model.Attributes{"battery": 50.0}}}}},
		{"TRCCR without a fix", "$TRCCR,20140101001122.333,V,60.0,-100.0,1.1,2.2,3.3,4.4,*2E", prototest.Result{
			Positions: []prototest.Position{{Time: time.Date(2014, 1, 1, 0, 11, 22, 0, time.UTC), Lat: 60, Lon: -100,
				Speed: 1.1, Course: 2.2, Altitude: 3.3, Attributes: model.Attributes{"battery": 4.4}}}}},
		{"WMCS", "$ID,350030950116536,4,WMCS-34,0,IOP,O,0x01,I,0x00,GPSEX,A,D,050703,T,095121,S,9:5,La,51.89573,N,Lo,5.89860,E,DD,0",
			prototest.Result{UniqueID: "350030950116536", Positions: []prototest.Position{{
				Time: time.Date(2003, 7, 5, 9, 51, 21, 0, time.UTC), Valid: true, Lat: 51.89573, Lon: 5.8986,
				Attributes: model.Attributes{"satVisible": 9, "sat": 5}}}}},
		{"unknown NMEA sentence", "$GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00*74", prototest.Result{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { check.Decode(t, testProtocol().Decode, tt.frame, tt.want) })
	}
}

func TestUnsupported(t *testing.T) {
	res, err := testProtocol().Decode(&protocols.Conn{}, []byte("$GPGSV,3,1,11*74"))
	if err != nil || res.Unsupported == "" {
		t.Errorf("got %+v, %v; want unsupported", res, err)
	}
}

// A Maxon device sends its RMC before naming itself: the position is held
// and released with the id.
func TestMaxonIdentifiesAfter(t *testing.T) {
	p := testProtocol()
	c := &protocols.Conn{}
	res, err := p.Decode(c, []byte("$GPRMC,012006,A,4828.10,N,1353.52,E,0.00,0.00,180915,020.3,E*42"))
	if err != nil || res.UniqueID != "" || len(res.Positions) != 1 {
		t.Fatalf("RMC: %+v, %v", res, err)
	}
	res, err = p.Decode(c, []byte(frameFID))
	if err != nil || res.UniqueID != "ID123456ABC" || len(res.Positions) != 1 {
		t.Fatalf("$GPFID: %+v, %v; want the held position", res, err)
	}
	prototest.Checker{Protocol: Name}.Position(t, res.Positions[0], prototest.Position{
		Time: time.Date(2015, 9, 18, 1, 20, 6, 0, time.UTC), Valid: true, Lat: 48.468333, Lon: 13.892, Attributes: model.Attributes{}})
	if res, _ := p.Decode(c, []byte(frameFID)); len(res.Positions) != 0 {
		t.Errorf("released twice")
	}
	// Once the connection is identified nothing is held.
	c = &protocols.Conn{UniqueID: "1"}
	p.Decode(c, []byte(frameRMC))
	if res, _ := p.Decode(c, []byte(frameFID)); len(res.Positions) != 0 || c.State != nil {
		t.Errorf("held on an identified connection")
	}
}

func TestDatagram(t *testing.T) {
	p := testProtocol()
	c := &protocols.Conn{Remote: "192.0.2.7:4000"}
	for _, tt := range []struct{ packet, id string }{
		{frameRMC + "\r\n", "192.0.2.7"},
		{frameIDRMC, "660420156A0066AA"},
		{framePGID + "\r\n", "359853000144328"},
	} {
		res, err := p.DecodeDatagram(c, []byte(tt.packet))
		if err != nil || res.UniqueID != tt.id {
			t.Errorf("%q: %+v, %v; want id %s", tt.packet, res, err, tt.id)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	prototest.DecodeRejects(t, testProtocol().Decode, nil,
		"", "hello world", "\x00\x01", "$PGID,*00", "$PGID,a,b*00", "abc,def$GPRMC,1", " $GPFID, x",
		"$GPRMC,125735.000,X,6010.34349,N,02445.72838,E,1.0,101.7,050509,6.9,W,A*1F",
		"$GPRMC,125735.000,A,6010.34349,Q,02445.72838,E,1.0,101.7,050509,6.9,W,A*1F",
		"$GPRMC,125735.000,A,6070.34349,N,02445.72838,E,1.0,101.7,050509,6.9,W,A*1F",
		"$GPRMC,125735.000,A,6010.34349,N,02445.72838,E,1.0,101.7,310209,6.9,W,A*1F",
		"$GPRMC,255735.000,A,6010.34349,N,02445.72838,E,1.0,101.7,050509,6.9,W,A*1F",
		"$GPRMC,125735.000,A,6010.34349,N,02445.72838,E,1e5,101.7,050509,6.9,W,A*1F",
		"$GPRMC,125735.000,A,6010.34349,N,02445.72838,E",
		"$GPGGA,000000.0,4337.200755,N,11611.955704,W,1,05,NaN,825.5,M,-11.0,M,,*6F",
		"$GPGLL,4650.5156500,N,01246.1059604,E,164414.90,X,A*77",
		"$TRCCR,20140111000000.000,A,91.000000,60.000000,0.00,0.00,0.00,50,*3a",
		"$GPIOP,0100000,00000000,0.00,0.00,0.00,0.00,4.69,4.24*49",
		"QZE,86899403397670,35,28062020,113553,22.13673,114.57263,0,22,A,0",
		"$ID,355826017981316,666,GPSET,V,X,1",
		"$ID,355826017981316,GPSET,V,La,91.0,N,Lo,1.0,E",
		"$GPTXT,NET,1003,A1,53,232 01*77",
	)
}
