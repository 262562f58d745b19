package dashboard_test

import (
	"fmt"
	"testing"
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
