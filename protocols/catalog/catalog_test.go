package catalog

import (
	"net"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/protocols"
)

// Traccar's default ports: devices configured for Traccar must reach fleetd
// unchanged.
func TestDefaultPorts(t *testing.T) {
	want := map[string]int{
		"gps103":    5001,
		"tk103":     5002,
		"gl200":     5004,
		"t55":       5005,
		"meiligao":  5009,
		"trv":       5010,
		"suntech":   5011,
		"h02":       5013,
		"jt600":     5014,
		"jt808":     5015,
		"meitrack":  5020,
		"gt06":      5023,
		"teltonika": 5027,
		"wialon":    5039,
		"ruptela":   5046,
		"osmand":    5055,
		"eelink":    5064,
		"castel":    5086,
		"watch":     5093,
	}
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
	// The protocols Traccar also serves over UDP.
	udp := map[string]bool{"teltonika": true, "h02": true, "gl200": true, "meitrack": true, "meiligao": true, "wialon": true, "eelink": true, "castel": true, "t55": true}
	for _, e := range All() {
		if e.UDP != udp[e.Name] {
			t.Errorf("%s UDP = %v", e.Name, e.UDP)
		}
	}
}

func TestStartAndClose(t *testing.T) {
	ports := map[string]int{"gt06": 0, "osmand": 0, "teltonika": 0}
	l, err := Start("127.0.0.1", ports, nil, protocols.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Addrs) != 3 {
		t.Fatalf("listening on %v, want gt06, osmand, teltonika", l.Addrs)
	}
	if s := l.String(); !strings.HasPrefix(s, "gt06=127.0.0.1:") || !strings.Contains(s, " osmand=127.0.0.1:") ||
		!strings.Contains(s, " teltonika=127.0.0.1:") {
		t.Errorf("String = %q, want name=address sorted by name", s)
	}
	// A clash on a taken port fails the whole start and leaves nothing open.
	taken := l.Addrs["gt06"].(*net.TCPAddr).Port
	if _, err := Start("127.0.0.1", map[string]int{"h02": 0, "gt06": taken}, nil, protocols.Options{}); err == nil ||
		!strings.Contains(err.Error(), "protocols.gt06.port") {
		t.Fatalf("clash err = %v, want it to name protocols.gt06.port", err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if c, err := net.Dial("tcp", l.Addrs["gt06"].String()); err == nil {
		c.Close()
		t.Fatal("gt06 still listening after Close")
	}
}
