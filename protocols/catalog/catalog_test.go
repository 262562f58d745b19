package catalog

import "testing"

// Traccar's default ports: devices configured for Traccar must reach fleetd
// unchanged.
func TestDefaultPorts(t *testing.T) {
	want := map[string]int{"gps103": 5001, "tk103": 5002, "h02": 5013, "gt06": 5023, "teltonika": 5027, "osmand": 5055, "watch": 5093}
	got := map[string]int{}
	for _, e := range All() {
		got[e.Name] = e.DefaultPort
		if (e.Stream == nil) == (e.HTTP == nil) {
			t.Errorf("%s: exactly one of Stream and HTTP must be set", e.Name)
		}
		if len(CommandTypes()[e.Name]) == 0 {
			t.Errorf("%s: no command types", e.Name)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("protocols = %v, want %v", got, want)
	}
	for name, port := range want {
		if got[name] != port {
			t.Errorf("%s port = %d, want %d", name, got[name], port)
		}
	}
	for _, e := range All() {
		if e.UDP != (e.Name == "teltonika" || e.Name == "h02") {
			t.Errorf("%s UDP = %v", e.Name, e.UDP)
		}
	}
}
