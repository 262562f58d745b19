package dashboard_test

import (
	"fmt"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// BenchmarkTicketList measures the server side of GET /dashboard/tickets
// with 1,000 tickets in the store: the core's read and filter, paging, and
// rendering the whole page into its buffer.
func BenchmarkTicketList(b *testing.B) {
	e := newEnv(b)
	for i := range 1000 {
		e.addTicket("driver1", fmt.Sprintf("Ticket %d: device stopped reporting", i), "tracking")
	}
	admin := e.as("admin")
	for _, q := range []string{"", "?q=reporting&page=20"} {
		b.Run("query="+q, func(b *testing.B) {
			for b.Loop() {
				if res := admin.get("/dashboard/tickets" + q); res.Status != 200 {
					b.Fatal(res.Status)
				}
			}
		})
	}
}

// BenchmarkFleetPage measures the server side of the pages a fleet of 500
// vehicles, each with a position, makes heavy: the live map's page (every
// device and position in the page's JSON and the list), the overview, and a
// vehicle's page with a 36-position day; page bytes are reported.
func BenchmarkFleetPage(b *testing.B) {
	e := newEnv(b)
	for i := range 500 {
		key := fmt.Sprintf("v%d", i)
		e.addDevice("admin", key, fmt.Sprintf("Vehicle %03d", i), fmt.Sprintf("8600000%08d", i),
			&model.Position{Latitude: 52 + float64(i%50)/100, Longitude: 13 + float64(i/50)/100, Speed: 20})
		e.IDs[key] = e.devices[key].ID
	}
	e.drive(b, "van2", nil)
	admin := e.as("admin")
	for _, page := range []string{"/dashboard/fleet", "/dashboard/", "/dashboard/fleet/devices/" + itoa(e.IDs["van2"]) + "?from=2024-01-02&to=2024-01-02"} {
		b.Run("page="+page, func(b *testing.B) {
			var size int
			for b.Loop() {
				res := admin.get(page)
				if res.Status != 200 {
					b.Fatal(res.Status)
				}
				size = len(res.Body)
			}
			b.ReportMetric(float64(size), "bytes/page")
		})
	}
}
