package protocols_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/catalog"
)

func osmandEntry(t *testing.T) protocols.HTTPProtocol {
	for _, e := range catalog.All() {
		if e.Name == "osmand" {
			return e.HTTP
		}
	}
	t.Fatal("osmand not in catalog")
	return nil
}

func TestHTTPListener(t *testing.T) {
	e := newEnv(t, ingest.Options{}, protocols.Options{})
	d := e.device("123456")
	srv, err := protocols.ListenHTTP(osmandEntry(t), "127.0.0.1:0", e.core.Ingest, protocols.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	url := "http://" + srv.Addr().String()

	tests := []struct {
		name       string
		method     string
		query      string
		body       string
		wantStatus int
		wantStored int
	}{
		{"query form stored", "GET", "/?id=123456&timestamp=1767225600&lat=60.0&lon=30.0&speed=10&alarm=sos&ignition=true", "", 200, 1},
		{"unknown device 404", "GET", "/?id=999&timestamp=1767225600&lat=60.0&lon=30.0", "", 404, 1},
		{"no id 400", "GET", "/?timestamp=1767225600&lat=60.0&lon=30.0", "", 400, 1},
		{"bad latitude 400", "GET", "/?id=123456&timestamp=1767225600&lat=600&lon=30.0", "", 400, 1},
		{"form body stored", "POST", "", "id=123456&timestamp=1767225660&lat=60.001&lon=30.0", 200, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, url+tt.query, strings.NewReader(tt.body))
			if tt.body != "" {
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			var ps []*model.Position
			e.db.View(func(tx model.Tx) error {
				return tx.Positions(d.ID, base, base.Add(365*24*3600e9), func(p *model.Position) bool { ps = append(ps, p); return true })
			})
			if len(ps) != tt.wantStored {
				t.Fatalf("stored %d positions, want %d", len(ps), tt.wantStored)
			}
		})
	}
	// Unknown parameters became attributes, and the alarm an event.
	ps := e.positions(d.ID)
	if len(ps) != 2 || ps[0].Attributes["alarm"] != "sos" || ps[0].Attributes["ignition"] != true {
		t.Fatalf("first position attributes = %v", ps[0].Attributes)
	}
	var alarms int
	e.db.View(func(tx model.Tx) error {
		return tx.Events(d.ID, base, base.Add(365*24*3600e9), func(ev *model.Event) bool {
			if ev.Type == model.EventAlarm && ev.Attributes["alarm"] == "sos" {
				alarms++
			}
			return true
		})
	})
	if alarms != 1 {
		t.Fatalf("alarm events = %d, want 1", alarms)
	}

	// A command queued while the device is away comes back in the next reply.
	if _, queued, err := e.core.Ingest.SendCommand(e.admin, &model.Command{DeviceID: d.ID, Type: "custom", Attributes: model.Attributes{"data": "hello"}}); err != nil || !queued {
		t.Fatalf("queue: queued %v err %v", queued, err)
	}
	resp, err := http.Get(url + "/?id=123456&timestamp=1767225720&lat=60.002&lon=30.0")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "hello" {
		t.Fatalf("reply body %q, want the queued command", body)
	}
}
