package office

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

func TestDaysAndNotices(t *testing.T) {
	now := time.Date(2025, 6, 1, 23, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		expiry       string
		days         int
		status       string
		stage        int
		sent         []int
		due          bool
		expiringDays int
	}{
		{"2025-07-02", 31, DocumentValid, -1, nil, false, 30},
		{"2025-07-01", 30, DocumentExpiring, 30, nil, true, 30},
		{"2025-07-01", 30, DocumentExpiring, 30, []int{30}, false, 30},
		{"2025-06-08", 7, DocumentExpiring, 7, []int{30}, true, 30},
		{"2025-06-05", 4, DocumentExpiring, 7, []int{30, 7}, false, 30},
		{"2025-06-02T00:10:00Z", 1, DocumentExpiring, 1, []int{30, 7}, true, 30},
		{"2025-06-01", 0, DocumentExpiring, 0, []int{30, 7, 1}, true, 30},
		{"2025-05-20", -12, DocumentExpired, 0, nil, true, 30},
		{"2025-05-20", -12, DocumentExpired, 0, []int{30, 7, 1, 0}, false, 30},
		{"2025-06-20", 19, DocumentValid, 30, nil, true, 10}, // the status threshold is configurable
	} {
		d, err := model.ParseDate(c.expiry)
		if err != nil {
			t.Fatal(err)
		}
		days := daysUntil(now, d)
		status := documentStatus(d, now, c.expiringDays)
		stage, due := dueNotice(days, c.sent)
		if days != c.days || status != c.status || stage != c.stage || due != c.due {
			t.Errorf("%s: days %d status %s stage %d due %v; want %d %s %d %v",
				c.expiry, days, status, stage, due, c.days, c.status, c.stage, c.due)
		}
	}
	if documentStatus(model.Date{}, now, 30) != DocumentValid {
		t.Error("a document without expiry date should be valid")
	}
}
