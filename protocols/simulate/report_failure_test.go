package simulate

import (
	"strings"
	"testing"
)

func TestReportFailure(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    Report
		want string // a fragment of the failure; "" for none
	}{
		{"nothing connected", Report{Protocol: "gt06"}, "no tracker connected"},
		{"connected, nothing sent", Report{Protocol: "gt06", Connected: 3}, "no position was sent"},
		{"sent, none acknowledged", Report{Protocol: "gt06", Connected: 3, Sent: 10}, "none was acknowledged"},
		{"a protocol without acknowledgements", Report{Protocol: "tk103", Connected: 3, Sent: 10, NoAck: "not answered"}, ""},
		{"acknowledged", Report{Protocol: "gt06", Connected: 3, Sent: 10, Acked: 9}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.r.Failure()
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("Failure() = %q, want %q", got, tc.want)
			}
		})
	}
}
