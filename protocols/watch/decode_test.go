package watch

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

var now = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

func testProtocol() *Protocol { return &Protocol{now: func() time.Time { return now }} }

const (
	frameUD  = "[SG*8800000015*0087*UD,220414,134652,A,22.571707,N,113.8613968,E,0.1,0.0,100,7,60,90,1000,50,0000,4,1,460,0,9360,4082,131,9360,4092,148,9360,4091,143,9360,4153,141]"
	frameLK  = "[SG*8800000015*0002*LK]"
	frameLK3 = "[3G*4700186508*000B*LK,0,10,100]"
	frameAL  = "[3G*6907919734*003e*AL_LTE,170525,214118,V,0,N,0,E,0,0,0,0,0,22,0,0,00010000,0,0,0]"
	frameTKQ = "[3G*8800000015*0003*TKQ]"
	frameZJ  = "[ZJ*014111001350304*0033*0064*UD,070318,020827,V,00.000000,N,000.000000,E,0,0,0,0,100,19,1000,50,00000000,1,255,460,0,9346,5223,42]"
	framePLS = "[CS*8800000015*0008*PULSE,72]"
	// frameTK is a voice message: "#!AMR" and 6 escaped bytes (Traccar's
	// test, after the makers' escaping table).
	frameTK = "[CS*1234567890*000e*TK,#!AMR}\x01}\x02}\x03}\x04}\x05\xff]"
	// frameConfig is a 4G watch's function report (a public capture).
	frameConfig = "[3G*1208014868*004F*CONFIG,TY:g72,UL:60,SY:0,CM:0,WT:0,HR:0,TB:2,CS:0,PP:1,AB:0,HH:1,TR:0,MO:1,FL:1]"
	frameBPHRT  = "[3G*4700609403*0013*bphrt,120,79,73,,,,]"
	frameBTemp  = "[3G*2104326058*000E*btemp2,1,35.29]"
	frameOxygen = "[3G*9705141740*000B*oxygen,0,98]"
)

// want describes the expected result of one frame.
type want struct {
	id            string
	reply, ack    string
	commandResult string
	unsupported   bool
	time          time.Time // fix time; zero for a position taken at the server time
	outdated      bool      // no location (always so with a zero time)
	valid         bool
	lat, lon      float64
	speed         float64
	course        float64
	altitude      float64
	noPos         bool
	attrs         model.Attributes // exact, all of them
	network       any
	maker         string
	hasIndex      bool
	media         *model.Media // the file the position comes with
}

func cellTower(mcc, mnc, lac, cid, rssi int) map[string]any {
	return map[string]any{"mobileCountryCode": mcc, "mobileNetworkCode": mnc,
		"locationAreaCode": lac, "cellId": cid, "signalStrength": rssi}
}

func gsm(cells ...map[string]any) map[string]any {
	return map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": cells}
}

// TestDecodeSamples covers every Watch frame of samples.md and the message
// types of the makers' documents, each on a real frame.
func TestDecodeSamples(t *testing.T) {
	cases := map[string]want{
		// UD: a GPS fix with four cells, not answered.
		frameUD: {
			id: "8800000015", time: time.Date(2014, 4, 22, 13, 46, 52, 0, time.UTC), valid: true,
			lat: 22.57171, lon: 113.86140, speed: 0.1 / 1.852, altitude: 100,
			attrs: model.Attributes{"sat": 7, "rssi": 60, "batteryLevel": 90, "steps": 1000},
			network: gsm(cellTower(460, 0, 9360, 4082, 131), cellTower(460, 0, 9360, 4092, 148),
				cellTower(460, 0, 9360, 4091, 143), cellTower(460, 0, 9360, 4153, 141)),
			maker: "SG",
		},
		// A bare LK is answered at once; one with steps and battery once stored.
		frameLK: {id: "8800000015", reply: "[SG*8800000015*0002*LK]", noPos: true, maker: "SG"},
		frameLK3: {
			id: "4700186508", ack: "[3G*4700186508*0002*LK]",
			attrs: model.Attributes{"steps": 0, "batteryLevel": 100}, maker: "3G",
		},
		// Two values: which is the battery is unknown, so nothing is kept.
		"[SG*9081000548*0009*LK,0,100]": {id: "9081000548", reply: "[SG*9081000548*0002*LK]", noPos: true, maker: "SG"},
		// An SOS without a fix: kept at the last known location.
		frameAL: {
			id: "6907919734", ack: "[3G*6907919734*0002*AL]", time: time.Date(2025, 5, 17, 21, 41, 18, 0, time.UTC), outdated: true,
			attrs: model.Attributes{"sat": 0, "rssi": 0, "batteryLevel": 22, "steps": 0, "alarm": "sos"},
			maker: "3G",
		},
		frameTKQ: {id: "8800000015", reply: "[3G*8800000015*0003*TKQ]", noPos: true, maker: "3G"},
		// Cells only (V at 0,0): the cells go to the network, the ingest
		// keeps the last known location.
		frameZJ: {
			id: "014111001350304", time: time.Date(2018, 3, 7, 2, 8, 27, 0, time.UTC), outdated: true,
			attrs:   model.Attributes{"sat": 0, "rssi": 100, "batteryLevel": 19, "steps": 1000},
			network: gsm(cellTower(460, 0, 9346, 5223, 42)), maker: "ZJ", hasIndex: true,
		},
		"[ZJ*014111001350304*0033*0002*LK]": {
			id: "014111001350304", reply: "[ZJ*014111001350304*0033*0002*LK]", noPos: true, maker: "ZJ", hasIndex: true,
		},
		framePLS: {id: "8800000015", attrs: model.Attributes{"heartRate": 72}, maker: "CS"},
		// A voice message: the audio, unescaped, is its file.
		frameTK: {
			id: "1234567890", ack: "[CS*1234567890*0004*TK,1]", attrs: model.Attributes{"audioSize": 11}, maker: "CS",
			media: &model.Media{Key: "audio", Ext: "amr", Type: "audio/amr", Data: []byte("#!AMR}[],*\xff")},
		},
		// The watch's answer to a voice message sent to it.
		"[CS*1234567890*0004*TK,1]": {id: "1234567890", commandResult: "TK,1", noPos: true, maker: "CS"},
		frameConfig:                 {id: "1208014868", reply: "[3G*1208014868*0008*CONFIG,1]", noPos: true, maker: "3G"},
		// Health readings answered as the documents say, once stored.
		frameBPHRT: {
			id: "4700609403", ack: "[3G*4700609403*0005*bphrt]",
			attrs: model.Attributes{"pressureHigh": 120, "pressureLow": 79, "heartRate": 73}, maker: "3G",
		},
		frameBTemp: {
			id: "2104326058", ack: "[3G*2104326058*0006*btemp2]", attrs: model.Attributes{"temp1": 35.29}, maker: "3G",
		},
		frameOxygen: {
			id: "9705141740", ack: "[3G*9705141740*0008*oxygen,1]", attrs: model.Attributes{"bloodOxygen": 98}, maker: "3G",
		},
	}
	for frame, w := range cases {
		t.Run(frame[:min(len(frame), 24)], func(t *testing.T) { checkDecode(t, frame, w) })
	}
}

// check compares decoded results with expectations; speeds are converted
// from km/h.
var check = prototest.Checker{Protocol: "watch", SpeedTolerance: 1e-9}

func checkDecode(t *testing.T, frame string, w want) {
	t.Helper()
	conn := &protocols.Conn{}
	res, err := testProtocol().Decode(conn, []byte(frame))
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if s, _ := conn.State.(*session); s == nil || s.maker != w.maker || s.hasIndex != w.hasIndex {
		t.Errorf("state = %#v, want maker %q index %v", conn.State, w.maker, w.hasIndex)
	}
	if (res.Unsupported != "") != w.unsupported {
		t.Errorf("unsupported = %q, want %v", res.Unsupported, w.unsupported)
	}
	result := prototest.Result{UniqueID: w.id, Reply: w.reply, Ack: w.ack, CommandResult: w.commandResult}
	if !w.noPos {
		pos := prototest.Position{Time: w.time, Valid: w.valid, Outdated: w.outdated, Lat: w.lat, Lon: w.lon,
			Speed: w.speed, Course: w.course, Altitude: w.altitude, Attributes: w.attrs, Network: w.network}
		if w.time.IsZero() {
			pos.Time, pos.Outdated = now, true
		}
		result.Positions = []prototest.Position{pos}
	}
	check.Result(t, res, result)
	checkMedia(t, res, w.media)
}

// checkMedia compares the file of res's only position with want.
func checkMedia(t *testing.T, res protocols.Result, want *model.Media) {
	t.Helper()
	var got *model.Media
	if len(res.Positions) == 1 {
		got = res.Positions[0].Media
	}
	show := func(m *model.Media) string {
		if m == nil {
			return "none"
		}
		return fmt.Sprintf("%s %s %s of %d bytes starting %q", m.Key, m.Ext, m.Type, len(m.Data), m.Data[:min(len(m.Data), 8)])
	}
	if (got == nil) != (want == nil) || got != nil && (got.Key != want.Key || got.Ext != want.Ext || got.Type != want.Type || !bytes.Equal(got.Data, want.Data)) {
		t.Errorf("media = %s, want %s", show(got), show(want))
	}
}
