package watch

import (
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
)

// want describes the expected result of one frame.
type want struct {
	id         string
	reply, ack string
	time       time.Time // fix time; zero for an outdated position at the server time
	valid      bool
	lat, lon   float64
	speed      float64
	course     float64
	altitude   float64
	noPos      bool
	attrs      model.Attributes // exact, all of them
	network    any
	state      session
}

func cellTower(mcc, mnc, lac, cid, rssi int) map[string]any {
	return map[string]any{"mobileCountryCode": mcc, "mobileNetworkCode": mnc,
		"locationAreaCode": lac, "cellId": cid, "signalStrength": rssi}
}

func gsm(cells ...map[string]any) map[string]any {
	return map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": cells}
}

// TestDecodeSamples covers every Watch frame of samples.md.
func TestDecodeSamples(t *testing.T) {
	cases := map[string]want{
		frameUD: {
			id: "8800000015", time: time.Date(2014, 4, 22, 13, 46, 52, 0, time.UTC), valid: true,
			lat: 22.57171, lon: 113.86140, speed: 0.1 / 1.852, altitude: 100,
			attrs: model.Attributes{"sat": 7, "rssi": 60, "batteryLevel": 90, "steps": 1000},
			network: gsm(cellTower(460, 0, 9360, 4082, 131), cellTower(460, 0, 9360, 4092, 148),
				cellTower(460, 0, 9360, 4091, 143), cellTower(460, 0, 9360, 4153, 141)),
			state: session{"SG", false},
		},
		frameLK: {id: "8800000015", reply: "[SG*8800000015*0002*LK]", noPos: true, state: session{"SG", false}},
		frameLK3: {
			id: "4700186508", reply: "[3G*4700186508*0002*LK]",
			attrs: model.Attributes{"steps": 0, "batteryLevel": 100}, state: session{"3G", false},
		},
		frameAL: {
			id: "6907919734", ack: "[3G*6907919734*0002*AL]", time: time.Date(2025, 5, 17, 21, 41, 18, 0, time.UTC),
			attrs: model.Attributes{"sat": 0, "rssi": 0, "batteryLevel": 22, "steps": 0, "alarm": "sos"},
			state: session{"3G", false},
		},
		frameTKQ: {id: "8800000015", reply: "[3G*8800000015*0003*TKQ]", noPos: true, state: session{"3G", false}},
		frameZJ: {
			id: "014111001350304", time: time.Date(2018, 3, 7, 2, 8, 27, 0, time.UTC),
			attrs:   model.Attributes{"sat": 0, "rssi": 100, "batteryLevel": 19, "steps": 1000},
			network: gsm(cellTower(460, 0, 9346, 5223, 42)), state: session{"ZJ", true},
		},
		"[ZJ*014111001350304*0033*0002*LK]": {
			id: "014111001350304", reply: "[ZJ*014111001350304*0033*0002*LK]", noPos: true, state: session{"ZJ", true},
		},
		framePLS: {id: "8800000015", attrs: model.Attributes{"heartRate": 72}, state: session{"CS", false}},
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
	if conn.State != w.state {
		t.Errorf("state = %#v, want %#v", conn.State, w.state)
	}
	result := prototest.Result{UniqueID: w.id, Reply: w.reply, Ack: w.ack}
	if !w.noPos {
		pos := prototest.Position{Time: w.time, Valid: w.valid, Lat: w.lat, Lon: w.lon, Speed: w.speed,
			Course: w.course, Altitude: w.altitude, Attributes: w.attrs, Network: w.network}
		if w.time.IsZero() {
			pos.Time, pos.Outdated = now, true
		}
		result.Positions = []prototest.Position{pos}
	}
	check.Result(t, res, result)
}
