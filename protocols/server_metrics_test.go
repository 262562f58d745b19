package protocols_test

import (
	"io"
	"sync"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/protocols"
)

// The listener reports every written ACK's latency and counts open
// connections, for the metrics endpoint.
func TestListenerMetricsHooks(t *testing.T) {
	var mu sync.Mutex
	var acks []string
	hook := func(protocol string, d time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		if d < 0 {
			t.Errorf("negative ACK latency %v", d)
		}
		acks = append(acks, protocol)
	}
	e := newEnv(t, app.IngestOptions{}, protocols.Options{AckLatency: hook})
	e.device("dev1")
	c, r := e.dial()
	// Two fixes are acknowledged; the identification frame and the bad
	// frame are not.
	io.WriteString(c, "dev1,1\nid,dev1\nnonsense\ndev1,2\n")
	for _, want := range []string{"ok 1", "hello", "ok 2"} {
		if got := readLine(t, r); got != want {
			t.Fatalf("reply = %q, want %q", got, want)
		}
	}
	// The latency is reported once the ACK is written, which may be just
	// after the device has read it.
	reported := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), acks...)
	}
	for deadline := time.Now().Add(10 * time.Second); len(reported()) < 2 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if got := reported(); len(got) != 2 || got[0] != "line" || got[1] != "line" {
		t.Errorf("ACK latencies reported for %v, want [line line]", got)
	}
	if open := e.srv.Stats.Open.Load(); open != 1 {
		t.Errorf("open connections = %d, want 1", open)
	}
	c.Close()
	for deadline := time.Now().Add(10 * time.Second); e.srv.Stats.Open.Load() != 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("open connections = %d after the device hung up, want 0", e.srv.Stats.Open.Load())
		}
	}
	if got := e.srv.Stats.Connections.Load(); got != 1 {
		t.Errorf("connections accepted = %d, want 1", got)
	}
}
