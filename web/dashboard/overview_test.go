package dashboard_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// serviced records a service of the seeded device key, daysAgo days ago, as admin.
func (e *env) serviced(key string, daysAgo int, odometer float64) {
	e.t.Helper()
	_, err := e.Core.Office.CreateServiceRecord(e.users["admin"], func(r *model.ServiceRecord) error {
		r.Title, r.VehicleID, r.Odometer = "Service", model.TextID(e.devices[key].ID), &odometer
		r.ServiceDate = model.Date{Time: e.now.AddDate(0, 0, -daysAgo)}
		return nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
}

// dueCard is the overview's "Maintenance due" card.
func dueCard(t *testing.T, body string) string {
	t.Helper()
	_, card, ok := strings.Cut(body, "<h2>Maintenance due</h2>")
	card, _, _ = strings.Cut(card, "</section>")
	if !ok {
		t.Fatalf("no maintenance due card in %.2000s", body)
	}
	return card
}

// The overview lists the vehicles overdue or due soon for service, most
// urgent first, each linking to its service history, and counts them.
func TestOverviewServicesDue(t *testing.T) {
	e := newEnv(t)
	e.serviced("truck1", 200, 120000) // 20 days past the 180-day interval
	e.serviced("van2", 10, 1000)      // recent, but nearly 10,000 km driven since
	van2 := e.devices["van2"]
	fix := &model.Position{DeviceID: van2.ID, Valid: true, Protocol: "gt06", Latitude: 52.5, Longitude: 13.4,
		FixTime: e.now.Add(-time.Minute), DeviceTime: e.now.Add(-time.Minute), Attributes: model.Attributes{"odometer": 10_800_000.0}}
	if err := e.Core.Ingest.Ingest(van2.ID, []*model.Position{fix}); err != nil {
		t.Fatal(err)
	}
	link := func(key string) string {
		return `href="/dashboard/maintenance?vehicle=` + itoa(e.devices[key].ID) + `">` + e.devices[key].Name + `</a>`
	}
	truckDue := "due " + e.now.AddDate(0, 0, -20).Format(time.DateOnly) + " ("
	tests := []struct {
		who     string
		count   string
		tone    string
		inOrder []string // fragments of the card, in this order
		absent  []string
	}{
		// van3 is the manager's, never serviced by the administrator.
		{"admin", "3", "tone-bad", []string{link("truck1"), "overdue", truckDue, "days ago)",
			link("van3"), "due soon", "no service recorded", link("van2"), "due soon", "200 km left"}, nil},
		// The administrator's records are not the manager's: van3 is due.
		{"manager", "1", "tone-warn", []string{link("van3"), "no service recorded"}, []string{"Truck One", "Van Two"}},
	}
	for _, tt := range tests {
		t.Run(tt.who, func(t *testing.T) {
			body := e.as(tt.who).get("/dashboard/").Body
			m := regexp.MustCompile(`class="stat (tone-\w+)" href="/dashboard/maintenance"><span class="stat-value">(\d+)</span>\s*<span class="stat-label">Maintenance due`).FindStringSubmatch(body)
			if m == nil || m[1] != tt.tone || m[2] != tt.count {
				t.Errorf("stat card %q, want %s %s", m, tt.tone, tt.count)
			}
			card := dueCard(t, body)
			rest := card
			for _, f := range tt.inOrder {
				i := strings.Index(rest, f)
				if i < 0 {
					t.Fatalf("card lacks %q after the earlier fragments:\n%s", f, card)
				}
				rest = rest[i+len(f):]
			}
			webtest.Lacks(t, "card", card, tt.absent...)
		})
	}
}
