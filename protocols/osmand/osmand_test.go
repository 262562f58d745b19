package osmand

import (
	"errors"
	"math"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// fixedNow is the server clock of the tests.
var fixedNow = prototest.Now

func query(t *testing.T, raw string) url.Values {
	t.Helper()
	v, err := url.ParseQuery(raw)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestDecodeQuery(t *testing.T) {
	tests := []struct {
		name, query, id string
		want            prototest.Position
	}{
		{
			name:  "unix seconds, speed in knots",
			query: "id=123456&timestamp=1377177267&lat=60.0&lon=30.0&speed=0.0&bearing=0.0&altitude=0&hdop=0.0",
			id:    "123456",
			want: prototest.Position{Time: time.Date(2013, 8, 22, 13, 14, 27, 0, time.UTC), Valid: true, Lat: 60, Lon: 30,
				Attributes: model.Attributes{"hdop": 0.0}},
		},
		{
			name:  "ISO 8601",
			query: "id=902064&lat=42.06288&lon=-88.23412&timestamp=2016-01-27T18%3A55%3A47Z&hdop=6.0&altitude=224.0&speed=0.0",
			id:    "902064",
			want: prototest.Position{Time: time.Date(2016, 1, 27, 18, 55, 47, 0, time.UTC), Valid: true, Lat: 42.06288, Lon: -88.23412,
				Altitude: 224, Attributes: model.Attributes{"hdop": 6.0}},
		},
		{
			name:  "unix milliseconds",
			query: "id=902064&lat=42.06288&lon=-88.23412&timestamp=1442068686579&hdop=6.0&altitude=224.0&speed=0.0",
			id:    "902064",
			want: prototest.Position{Time: time.UnixMilli(1442068686579).UTC(), Valid: true, Lat: 42.06288, Lon: -88.23412,
				Altitude: 224, Attributes: model.Attributes{"hdop": 6.0}},
		},
		{
			name:  "date time with space, UTC",
			query: "lat=49.60688&lon=6.15788&timestamp=2014-06-04+09%3A10%3A11&altitude=384.7&speed=0.0&id=353861053849681",
			id:    "353861053849681",
			want: prototest.Position{Time: time.Date(2014, 6, 4, 9, 10, 11, 0, time.UTC), Valid: true, Lat: 49.60688, Lon: 6.15788,
				Altitude: 384.7, Attributes: model.Attributes{}},
		},
		{
			name:  "location pair",
			query: "id=123456&timestamp=1377177267&location=60.0,30.0",
			id:    "123456",
			want:  prototest.Position{Time: time.Date(2013, 8, 22, 13, 14, 27, 0, time.UTC), Valid: true, Lat: 60, Lon: 30, Attributes: model.Attributes{}},
		},
		{
			name:  "free parameters become typed attributes",
			query: "id=123456789012345&timestamp=1504763810&lat=40.7232948571&lon=-74.0061408571&bearing=7.19889788244&speed=40&ignition=true&rpm=933&fuel=24&alarm=sos&door=false",
			id:    "123456789012345",
			want: prototest.Position{Time: time.Unix(1504763810, 0).UTC(), Valid: true, Lat: 40.7232948571, Lon: -74.0061408571,
				Speed: 40, Course: 7.19889788244,
				Attributes: model.Attributes{"ignition": true, "rpm": 933.0, "fuel": 24.0, "alarm": "sos", "door": false}},
		},
		{
			name:  "cells and wifi without location",
			query: "id=123456&timestamp=1377177267&cell=257,02,16,2224&cell=257,02,16,2223,-90&wifi=00-14-22-01-23-45,-80&wifi=00-1C-B3-09-85-15,-70",
			id:    "123456",
			want: prototest.Position{Time: time.Date(2013, 8, 22, 13, 14, 27, 0, time.UTC), Valid: true, Outdated: true, Attributes: model.Attributes{},
				Network: map[string]any{"radioType": "gsm", "considerIp": false,
					"cellTowers": []any{
						map[string]any{"mobileCountryCode": int64(257), "mobileNetworkCode": int64(2), "locationAreaCode": int64(16), "cellId": int64(2224)},
						map[string]any{"mobileCountryCode": int64(257), "mobileNetworkCode": int64(2), "locationAreaCode": int64(16), "cellId": int64(2223), "signalStrength": int64(-90)},
					},
					"wifiAccessPoints": []any{
						map[string]any{"macAddress": "00:14:22:01:23:45", "signalStrength": int64(-80)},
						map[string]any{"macAddress": "00:1C:B3:09:85:15", "signalStrength": int64(-70)},
					}}},
		},
		{
			name:  "deviceid, no time, batt, accuracy, valid=0, driver",
			query: "deviceid=abc&lat=1.5&lon=2.5&batt=87.5&accuracy=12&valid=0&driverUniqueId=007&heading=90",
			id:    "abc",
			want: prototest.Position{Time: fixedNow, Lat: 1.5, Lon: 2.5, Course: 90, Accuracy: 12,
				Attributes: model.Attributes{"batteryLevel": 87.5, "driverUniqueId": "007"}},
		},
		{
			name:  "timestamp 2^31-1 is milliseconds",
			query: "id=1&lat=1&lon=1&timestamp=2147483647&valid=true",
			id:    "1",
			want:  prototest.Position{Time: time.UnixMilli(math.MaxInt32).UTC(), Valid: true, Lat: 1, Lon: 1, Attributes: model.Attributes{}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, positions, err := Decode("GET", "", query(t, tt.query), nil, fixedNow)
			if err != nil {
				t.Fatal(err)
			}
			if id != tt.id || len(positions) != 1 {
				t.Fatalf("id %q, %d positions", id, len(positions))
			}
			checkPosition(t, positions[0], tt.want)
		})
	}
}

func TestDecodeFormBody(t *testing.T) {
	body := []byte("id=123456&timestamp=1377177267&lat=60.0&lon=30.0")
	for _, ct := range []string{"application/x-www-form-urlencoded", "text/plain", ""} {
		id, positions, err := Decode("POST", ct, url.Values{}, body, fixedNow)
		if err != nil || id != "123456" || len(positions) != 1 || positions[0].Latitude != 60 {
			t.Fatalf("%q: %q %v %v", ct, id, positions, err)
		}
	}
	// A GET body is ignored.
	if _, _, err := Decode("GET", "", nil, body, fixedNow); !errors.Is(err, model.ErrInvalid) {
		t.Fatalf("GET body used: %v", err)
	}
}

const transistorsoft = `{"location":{"event":"motionchange","is_moving":false,"uuid":"0e9a2473-a9a7-4c00-997b-fb97d2154e75","timestamp":"2021-07-21T08:06:34.444Z","odometer":0,"coords":{"latitude":-6.1148096,"longitude":106.6837015,"accuracy":3.8,"speed":18.67,"speed_accuracy":0.26,"heading":63,"heading_accuracy":0.28,"altitude":35.7,"altitude_accuracy":3.8},"activity":{"type":"still","confidence":100},"battery":{"is_charging":false,"level":0.79},"extras":{}},"device_id":"8737767034"}`

func TestDecodeJSON(t *testing.T) {
	sample := prototest.Position{Time: time.Date(2021, 7, 21, 8, 6, 34, 444e6, time.UTC), Valid: true,
		Lat: -6.1148096, Lon: 106.6837015, Speed: 36.29, Course: 63, Altitude: 35.7, Accuracy: 3.8,
		Attributes: model.Attributes{"event": "motionchange", "motion": false, "odometer": 0.0,
			"activity": "still", "batteryLevel": int64(79), "charge": false}}
	withExtras := sample
	withExtras.Attributes = model.Attributes{"device_integer_twelve_test": int64(12), "ratio": 0.5, "flag": true,
		"name": "van", "big": 1e20}
	for k, v := range sample.Attributes {
		withExtras.Attributes[k] = v
	}
	second := prototest.Position{Time: fixedNow, Valid: true, Lat: 1, Lon: 2, Attributes: model.Attributes{}}
	tests := []struct {
		name, body, query, id string
		want                  []prototest.Position
	}{
		{"sample", transistorsoft, "", "8737767034", []prototest.Position{sample}},
		{"extras keep integers", strings.Replace(transistorsoft, `"extras":{}`,
			`"extras":{"device_integer_twelve_test":12,"ratio":0.5,"flag":true,"name":"van","big":100000000000000000000,"nested":{"a":1},"none":null}`, 1),
			"", "8737767034", []prototest.Position{withExtras}},
		{"batched array, id from query",
			`{"location":[` + locationOf(transistorsoft) + `,{"coords":{"latitude":1,"longitude":2,"speed":-1,"heading":-1}}]}`,
			"id=42", "42", []prototest.Position{sample, second}},
		{"numeric device_id", `{"location":{"coords":{"latitude":1,"longitude":2}},"device_id":77}`, "", "77", []prototest.Position{second}},
		{"no coords is outdated", `{"location":{"timestamp":"2021-07-21T08:06:34Z"},"device_id":"x"}`, "", "x",
			[]prototest.Position{{Time: time.Date(2021, 7, 21, 8, 6, 34, 0, time.UTC), Valid: true, Outdated: true, Attributes: model.Attributes{}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, positions, err := Decode("POST", "application/json; charset=utf-8", query(t, tt.query), []byte(tt.body), fixedNow)
			if err != nil {
				t.Fatal(err)
			}
			if id != tt.id || len(positions) != len(tt.want) {
				t.Fatalf("id %q, %d positions", id, len(positions))
			}
			for i, w := range tt.want {
				checkPosition(t, positions[i], w)
			}
		})
	}
}

// locationOf extracts the location object of a single-location body.
func locationOf(body string) string {
	s := strings.TrimPrefix(body, `{"location":`)
	return s[:strings.LastIndex(s, `,"device_id"`)]
}

// checkPosition compares a decoded position; speeds are converted from
// m/s or km/h to knots and written to 2 decimals.
func checkPosition(t *testing.T, p *model.Position, w prototest.Position) {
	t.Helper()
	prototest.Checker{Protocol: "osmand", SpeedTolerance: 0.005}.Position(t, p, w)
}

func TestDecodeRejects(t *testing.T) {
	queries := []string{
		"timestamp=1377177267&lat=60.0&lon=30.0",
		"id=&lat=1&lon=1",
		"id=1&lat=abc&lon=1",
		"id=1&lat=NaN&lon=1",
		"id=1&lat=91&lon=1",
		"id=1&lat=1&lon=-181",
		"id=1&location=60.0",
		"id=1&location=60.0,x",
		"id=1&timestamp=yesterday",
		"id=1&timestamp=2014-13-04+09:10:11",
		"id=1&timestamp=-1",              // before 1970
		"id=1&timestamp=270000000000000", // year 10525: no JSON time states it
		"id=1&timestamp=9223372036854775807",
		"id=1&cell=257,02,16",
		"id=1&cell=257,02,16,x",
		"id=1&wifi=00-14-22-01-23-45",
		"id=1&speed=Inf",
		"id=1&batt=full",
	}
	for _, q := range queries {
		if _, _, err := Decode("GET", "", query(t, q), nil, fixedNow); !errors.Is(err, model.ErrInvalid) {
			t.Errorf("%q: err %v, want invalid", q, err)
		}
	}
	bodies := []string{
		`{`,
		`[]`,
		`{"location":{"coords":{"latitude":1,"longitude":2}}}`,
		`{"location":{"coords":{"latitude":100,"longitude":2}},"device_id":"x"}`,
		`{"location":{"timestamp":"noon"},"device_id":"x"}`,
		`{"location":[],"device_id":"x"}`,
		`{"location":"here","device_id":"x"}`,
		`{"device_id":"x"}`,
		`{"location":{"coords":{"latitude":"1"}},"device_id":"x"}`,
	}
	for _, b := range bodies {
		if _, _, err := Decode("POST", "application/json", nil, []byte(b), fixedNow); !errors.Is(err, model.ErrInvalid) {
			t.Errorf("%s: err %v, want invalid", b, err)
		}
	}
	if _, _, err := Decode("POST", "", nil, []byte("id=%zz"), fixedNow); !errors.Is(err, model.ErrInvalid) {
		t.Errorf("bad form body: %v", err)
	}
}

func TestEncodeCommand(t *testing.T) {
	got, err := EncodeCommand(&model.Command{Type: "custom", Attributes: model.Attributes{"data": "reboot"}})
	if err != nil || got != "reboot" {
		t.Fatalf("got %q %v", got, err)
	}
	for _, cmd := range []model.Command{{Type: "engineStop"}, {Type: "custom"}, {Type: "custom", Attributes: model.Attributes{"data": 5}}} {
		if _, err := EncodeCommand(&cmd); !errors.Is(err, model.ErrInvalid) {
			t.Errorf("%+v: err %v, want invalid", cmd, err)
		}
	}
	if !reflect.DeepEqual(CommandTypes(), []string{"custom"}) {
		t.Errorf("CommandTypes %v", CommandTypes())
	}
}
