package osmand

import (
	"net/url"
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func FuzzDecode(f *testing.F) {
	f.Add("id=123456&timestamp=1377177267&lat=60.0&lon=30.0&speed=0.0&bearing=0.0&altitude=0&hdop=0.0", "", false)
	f.Add("id=123456&timestamp=1377177267&cell=257,02,16,2224&cell=257,02,16,2223,-90&wifi=00-14-22-01-23-45,-80", "", false)
	f.Add("lat=49.60688&lon=6.15788&timestamp=2014-06-04+09%3A10%3A11&id=353861053849681", "", false)
	f.Add("", "id=1&location=1,2&ignition=true", false)
	f.Add("", transistorsoft, true)
	f.Add("id=9", `{"location":[{"coords":{"latitude":1,"longitude":2}},{"extras":{"a":1.5}}]}`, true)
	f.Fuzz(func(t *testing.T, rawQuery, body string, isJSON bool) {
		q, _ := url.ParseQuery(rawQuery)
		ct := "application/x-www-form-urlencoded"
		if isJSON {
			ct = "application/json"
		}
		id, positions, err := Decode("POST", ct, q, []byte(body), fixedNow)
		if err != nil {
			return
		}
		if id == "" || len(positions) == 0 {
			t.Fatalf("success without id or positions: %q %d", id, len(positions))
		}
		prototest.Storable(t, Name, protocols.Result{Positions: positions}, []byte(rawQuery+" "+body))
	})
}

func BenchmarkDecode(b *testing.B) {
	for name, tc := range map[string]struct {
		query, ct, body string
	}{
		"query": {"id=123456789012345&timestamp=1504763810&lat=40.7232948571&lon=-74.0061408571&bearing=7.19889788244&speed=40&ignition=true&rpm=933&fuel=24", "", ""},
		"json":  {"", "application/json", transistorsoft},
	} {
		b.Run(name, func(b *testing.B) {
			q, _ := url.ParseQuery(tc.query)
			body := []byte(tc.body)
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Decode("POST", tc.ct, q, body, fixedNow); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
