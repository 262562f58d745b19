package h02

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// TestStatusWord checks each bit of the status word Traccar reads: the
// bits are active low, and the first alarm in bit order wins.
func TestStatusWord(t *testing.T) {
	const idle = 0xFFFFFFFF
	for _, tc := range []struct {
		name     string
		status   uint32
		alarm    string // "" for none
		ignition bool
	}{
		{"nothing active", idle, "", true},
		{"ignition off", idle &^ (1 << 10), "", false},
		{"vibration", idle &^ (1 << 0), "vibration", true},
		{"sos", idle &^ (1 << 1), "sos", true},
		{"sos, second bit", idle &^ (1 << 18), "sos", true},
		{"overspeed", idle &^ (1 << 2), "overspeed", true},
		{"power cut", idle &^ (1 << 19), "powerCut", true},
		{"vibration wins over sos", idle &^ (1<<0 | 1<<1), "vibration", true},
		{"sos wins over power cut", idle &^ (1<<18 | 1<<19), "sos", true},
		// Only bits 0, 1, 2, 10, 18 and 19 set: every other bit is active.
		{"other bits raise nothing", 0x000C0407, "", true},
		{"other bits, ignition off", 0x000C0007, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pos := &model.Position{Attributes: model.Attributes{}}
			setStatus(pos, tc.status)
			if got, _ := pos.Attributes["alarm"].(string); got != tc.alarm {
				t.Errorf("alarm = %q, want %q", got, tc.alarm)
			}
			if pos.Attributes["ignition"] != tc.ignition || pos.Attributes["status"] != int64(tc.status) {
				t.Errorf("ignition %v status %v, want %v %d", pos.Attributes["ignition"], pos.Attributes["status"], tc.ignition, tc.status)
			}
		})
	}
}
