package timezone

import (
	"slices"
	"testing"
)

// Every listed zone loads from Go's embedded database, so a choice from
// the list never fails where it is used (reports, notifications).
func TestTimezonesLoad(t *testing.T) {
	zones := Names()
	for _, want := range []string{"UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"} {
		if !slices.Contains(zones, want) {
			t.Errorf("%s is not listed", want)
		}
	}
	if !slices.IsSorted(zones) {
		t.Error("the list is not sorted")
	}
	for _, z := range zones {
		if _, ok := Load(z); !ok {
			t.Errorf("%s does not load", z)
		}
	}
	for _, bad := range []string{"", "Mars/Olympus", "../etc/passwd", "europe/berlin"} {
		if _, ok := Load(bad); ok {
			t.Errorf("Load(%q) succeeded", bad)
		}
	}
}
