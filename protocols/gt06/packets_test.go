package gt06

import (
	"math"
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

// Packet types without a Traccar sample, built from the documented layouts.
const (
	gpsBlock     = "0f0a140e150b" + "c5" + "05e51e78" + "0293a9e8" + "00" + "1800" // valid, south, west
	cellBlock    = "00f6" + "01" + "006e" + "0055da"
	wideCell     = "00f6" + "0001" + "006e" + "000055da"
	statusBlock  = "0a" + "06" + "04" + "02" + "02" // ignition, vibration bits; powerCut byte
	sevenCells   = "006e0055da32" + "006f00000128" + "000000000000000000000000000000000000000000000000000000000000"
	iccidContent = "0a" + "0123456789012345" + "0123456789012345" + "8986011234567890123f"
)

func TestDecodeBuiltPackets(t *testing.T) {
	tests := []struct {
		name     string
		long     bool
		typ      int
		content  string
		outdated bool
		towers   int
		attrs    map[string]any
		silent   bool // no answer at all
	}{
		{name: "gps 0x10", typ: msgGPS, content: gpsBlock, attrs: map[string]any{"sat": 5}},
		{name: "gps lbs 0x11", typ: msgGPSLBS6, content: gpsBlock + wideCell, towers: 1},
		{name: "gps lbs 0x11 without cell", typ: msgGPSLBS6, content: gpsBlock},
		{name: "gps 4g 0xa0 without cell", typ: msgGPSLBS4G, content: gpsBlock},
		{name: "gps lbs odometer", typ: msgGPSLBS, content: gpsBlock + cellBlock + "00001234", towers: 1,
			attrs: map[string]any{"odometer": int64(0x1234)}},
		{name: "lbs status 0x19", typ: msgLBSStatus, content: cellBlock + statusBlock, outdated: true, towers: 1,
			attrs: map[string]any{"ignition": true, "alarm": "vibration,powerCut", "batteryLevel": 100, "rssi": 4}},
		{name: "lbs multiple 0x28", typ: msgLBSMultiple, content: "0f0a140e150b" + "00f601" + sevenCells + "00",
			outdated: true, towers: 2},
		{name: "info power", long: true, typ: msgInfo, content: "000514", outdated: true, silent: true,
			attrs: map[string]any{"adc1": 13.0}},
		{name: "info door", long: true, typ: msgInfo, content: "0501", outdated: true, silent: true,
			attrs: map[string]any{"door": true}},
		{name: "info iccid", long: true, typ: msgInfo, content: iccidContent, outdated: true, silent: true,
			attrs: map[string]any{"iccid": "8986011234567890123"}},
		{name: "jc100 alarm with location", typ: msgAlarm, content: "0f0a140e150b05e51e780293a9e8180001",
			attrs: map[string]any{"alarm": "sos", "event": 1}},
		{name: "jc100 alarm without location", typ: msgAlarm, content: "0f0a140e150b01", outdated: true,
			attrs: map[string]any{"alarm": "general"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			frame := response(tt.long, tt.typ, prototest.Unhex(t, tt.content), []byte{0, 9})
			res, err := New().Decode(nil, frame)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Positions) != 1 || res.ChecksumError {
				t.Fatalf("result %+v", res)
			}
			answer := response(tt.long, tt.typ, nil, []byte{0, 9})
			switch {
			case tt.silent && (res.Ack != nil || res.Reply != nil):
				t.Errorf("answered a packet that needs no answer: %x %x", res.Reply, res.Ack)
			case !tt.silent && (string(res.Ack) != string(answer) || res.Reply != nil):
				t.Errorf("Ack = %x Reply = %x, want Ack %x", res.Ack, res.Reply, answer)
			}
			p := res.Positions[0]
			if p.Outdated != tt.outdated {
				t.Errorf("Outdated = %v", p.Outdated)
			}
			if !tt.outdated && (math.Abs(p.Latitude+54.94535) > 1e-5 || math.Abs(p.Longitude+24.01762) > 1e-5 || !p.Valid) {
				t.Errorf("location = %v %v valid %v, want -54.94535 -24.01762 valid", p.Latitude, p.Longitude, p.Valid)
			}
			for k, v := range tt.attrs {
				if p.Attributes[k] != v {
					t.Errorf("attribute %s = %#v, want %#v", k, p.Attributes[k], v)
				}
			}
			var towers []map[string]any
			if net, ok := p.Network.(map[string]any); ok {
				towers, _ = net["cellTowers"].([]map[string]any)
			}
			if len(towers) != tt.towers {
				t.Fatalf("towers = %v, want %d", towers, tt.towers)
			}
			for _, tw := range towers {
				sig, hasSig := tw["signalStrength"]
				if tw["mobileCountryCode"] != 246 || tw["mobileNetworkCode"] != 1 ||
					hasSig && sig != -50 && sig != -40 {
					t.Errorf("tower %v, want MCC 246 MNC 1", tw)
				}
			}
		})
	}
}
