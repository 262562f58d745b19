package tk103

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// check compares decoded results with expectations; speeds are converted
// from km/h.
var check = prototest.Checker{Protocol: Name, SpeedTolerance: 1e-9}

func newTestProtocol() *Protocol {
	p := New()
	p.now = prototest.Clock
	return p
}

func TestDecodeHandshake(t *testing.T) {
	check.Decode(t, newTestProtocol().Decode, "(087073005534BP00HSO)", prototest.Result{UniqueID: "087073005534", Reply: "(087073005534AP01HSO)"})
}

func TestDecodePositions(t *testing.T) {
	tests := []struct {
		name, frame, id, reply, ack string
		want                        prototest.Position
	}{
		{
			name:  "BR00 with status block and odometer",
			frame: "(088047365460BR00151024A2555.3531S02855.3329E004.7055148276.1701000000L00009AA3)",
			id:    "088047365460",
			want: prototest.Position{Time: time.Date(2015, 10, 24, 5, 51, 48, 0, time.UTC), Valid: true, Lat: -25.92255, Lon: 28.92222,
				Speed: 4.7 / 1.852, Course: 276.17,
				Attributes: model.Attributes{"charge": true, "ignition": true, "in2": int64(0), "panic": int64(0),
					"out2": int64(0), "fuelLevel": int64(0), "odometer": int64(0x9AA3)}},
		},
		{
			name:  "BP05 login carries IMEI and a position",
			frame: "(088048003342BP05354188048003342150917A1352.9801N10030.9050E000.0103115265.5600010000L000003F9)",
			id:    "088048003342", reply: "(088048003342AP05)",
			want: prototest.Position{Time: time.Date(2015, 9, 17, 10, 31, 15, 0, time.UTC), Valid: true, Lat: 13.88300, Lon: 100.51508,
				Course: 265.56,
				Attributes: model.Attributes{"charge": true, "ignition": false, "in2": int64(0), "panic": int64(0),
					"out2": int64(0), "hs3": int64(1), "fuelLevel": int64(0), "odometer": int64(0x3F9)}},
		},
		{
			name:  "BQ81 alarm form",
			frame: "(044027395704BQ81,ALARM,1,164,151101A2238.5237N11349.4571E0.7031241010.0000,00000000)",
			id:    "044027395704",
			want: prototest.Position{Time: time.Date(2015, 11, 1, 12, 41, 1, 0, time.UTC), Valid: true, Lat: 22.642062, Lon: 113.824285,
				Speed: 0.703 / 1.852, Attributes: model.Attributes{"alarm": "overspeed"}},
		},
		{
			name:  "comma form with IMEI, ddMMyy date",
			frame: "(864768011069660,ZC17,250517,A,3211.7118N,03452.8086E,0.68,115525,208.19,64.50,9)",
			id:    "864768011069660",
			want: prototest.Position{Time: time.Date(2017, 5, 25, 11, 55, 25, 0, time.UTC), Valid: true, Lat: 32.19520, Lon: 34.88014,
				Speed: 0.68 / 1.852, Course: 208.19, Attributes: model.Attributes{"alarm": "removing"}},
		},
		{
			name:  "BO01 alarm, acked with its code; month 18 rolls over",
			frame: "(013612345678BO012061830A2934.0133N10627.2544E040.0080331309.6200000000L000770AD)",
			id:    "013612345678", ack: "(013612345678AS012)",
			want: prototest.Position{Time: time.Date(2007, 6, 30, 8, 3, 31, 0, time.UTC), Valid: true, Lat: 29.566888, Lon: 106.454240,
				Speed: 40 / 1.852, Course: 309.62,
				Attributes: model.Attributes{"alarm": "sos", "charge": true, "ignition": false, "in2": int64(0),
					"panic": int64(0), "out2": int64(0), "fuelLevel": int64(0), "odometer": int64(0x770AD)}},
		},
		{
			name:  "invalid fix, west, active io lines",
			frame: "(088047365460BR01151024V2555.3531N02855.3329W100.0235959001.0011BFE21AL1)",
			id:    "088047365460",
			want: prototest.Position{Time: time.Date(2015, 10, 24, 23, 59, 59, 0, time.UTC), Lat: 25.92255, Lon: -28.92222,
				Speed: 100 / 1.852, Course: 1,
				Attributes: model.Attributes{"charge": false, "ignition": true, "in2": int64(1), "panic": int64(1),
					"out2": int64(0), "blocked": int64(1), "hs3": int64(1), "hs2": int64(1), "hs1": int64(1),
					"door": int64(1), "ls3": int64(1), "ls2": int64(1), "ls1": int64(1), "fuelLevel": int64(0x21A), "odometer": int64(1)}},
		},
		{
			name:  "ignition on type",
			frame: "(864768011069660,ZC15,250517,A,3211.7118N,03452.8086E,12.5,115525,90.5)",
			id:    "864768011069660",
			want: prototest.Position{Time: time.Date(2017, 5, 25, 11, 55, 25, 0, time.UTC), Valid: true, Lat: 32.19520, Lon: 34.88014,
				Speed: 12.5 / 1.852, Course: 90.5, Attributes: model.Attributes{"ignition": true}},
		},
		{
			name:  "BZ00 cell",
			frame: "(088047365460BZ00,250,1,1A2B,C3D4,0)",
			id:    "088047365460",
			want: prototest.Position{Time: prototest.Now, Outdated: true, Attributes: model.Attributes{},
				Network: map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": []any{
					map[string]any{"mobileCountryCode": int64(250), "mobileNetworkCode": int64(1),
						"locationAreaCode": int64(0x1A2B), "cellId": int64(0xC3D4)}}}},
		},
		{
			name:  "BV00 VIN",
			frame: "(088047365460BV001HGCM82633A004352)",
			id:    "088047365460",
			want:  prototest.Position{Time: prototest.Now, Outdated: true, Attributes: model.Attributes{"vin": "1HGCM82633A004352"}},
		},
		{
			name:  "ZC20 battery report",
			frame: "(864768011069660,ZC20,131117,223706,6,394,65535,255)",
			id:    "864768011069660",
			want: prototest.Position{Time: time.Date(2017, 11, 13, 22, 37, 6, 0, time.UTC), Outdated: true,
				Attributes: model.Attributes{"batteryLevel": int64(100), "battery": 3.94}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check.Decode(t, newTestProtocol().Decode, tt.frame, prototest.Result{UniqueID: tt.id, Reply: tt.reply, Ack: tt.ack,
				Positions: []prototest.Position{tt.want}})
		})
	}
}

func TestDecodeCommandResult(t *testing.T) {
	check.Decode(t, newTestProtocol().Decode, "(864768011069660,ZC03,131117,223706,$Notice: (ok) done$)",
		prototest.Result{UniqueID: "864768011069660", CommandResult: "Notice: (ok) done"})
}

func TestDecodeRejects(t *testing.T) {
	prototest.DecodeRejects(t, newTestProtocol().Decode, model.ErrInvalid,
		"",
		"()",
		"(088047365460BR00",
		"(08804736546)",
		"(0880-7365460BR00151024A2555.3531S02855.3329E004.7055148276.17)",
		"(088047365460BR0015102A2555.3531S02855.3329E004.7055148276.17)",
		"(088047365460BR00151024X2555.3531S02855.3329E004.7055148276.17)",
		"(088047365460BR00151024A2575.3531S02855.3329E004.7055148276.17)",
		"(088047365460BR00151024A9155.3531S02855.3329E004.7055148276.17)",
		"(088047365460BR00151024A2555.3531Q02855.3329E004.7055148276.17)",
		"(088047365460BR00151024A2555.3531S02855.3329E004.70551)",
		"(088047365460BR00151024A2555.3531S02855.3329E.....055148276.17)",
		"(088047365460BQ81,ALARM,1,,151101A2238.5237N11349.4571E0.7031241010.0000)",
		"(088047365460BZ00,250,1,XYZ,C3D4)",
		"(088047365460BV00SHORT)",
		"(864768011069660,ZC20,131117,22370,6,394,65535,255)",
		"(864768011069660,ZC03,131117,223706,no text)",
	)
}
