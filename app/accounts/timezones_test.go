package accounts

import (
	"slices"
	"testing"
	"time"
)

// Every listed zone loads from Go's embedded database, so a choice from
// the list never fails where it is used (reports, notifications).
func TestTimezonesLoad(t *testing.T) {
	zones := Timezones()
	for _, want := range []string{"UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"} {
		if !slices.Contains(zones, want) {
			t.Errorf("%s is not listed", want)
		}
	}
	if !slices.IsSorted(zones) {
		t.Error("the list is not sorted")
	}
	for _, z := range zones {
		if _, err := time.LoadLocation(z); err != nil {
			t.Errorf("%s: %v", z, err)
		}
	}
}
