package protocols_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/app/model"
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
	e := newEnv(t, ingest.Options{}, protocols.Options{AckLatency: hook})
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

// hookSink accepts every device and stores nothing; the first Ingest
// after failNext is set fails.
type hookSink struct {
	failNext atomic.Bool
}

func (s *hookSink) Identify(_, uid, _ string) (*model.Device, error) {
	d := &model.Device{UniqueID: uid}
	d.ID = 1
	return d, nil
}
func (s *hookSink) Ingest(int64, []*model.Position) error {
	if s.failNext.CompareAndSwap(true, false) {
		return errors.New("disk full")
	}
	return nil
}
func (s *hookSink) Registered(uid string) (*model.Device, error) { return s.Identify("", uid, "") }
func (s *hookSink) Connected(int64, ingest.DeviceConn) func()    { return func() {} }
func (s *hookSink) CommandResult(int64, string) error            { return nil }
func (s *hookSink) TakeQueued(int64) ([]*model.Command, error)   { return nil, nil }

// Every call handing positions to the sink, stored or failed, reaches the
// Ingested hook, on stream and HTTP listeners alike; the hook is told
// before the device gets its answer.
func TestListenerIngestedHook(t *testing.T) {
	calls := make(chan string, 8)
	sink, opts := &hookSink{}, protocols.Options{Ingested: func(positions int, took time.Duration, err error) {
		if took < 0 {
			t.Errorf("negative ingest time %v", took)
		}
		calls <- fmt.Sprint(positions, " ", err)
	}}
	told := func() (got []string) { // what the hook was told so far
		for {
			select {
			case c := <-calls:
				got = append(got, c)
			default:
				return got
			}
		}
	}
	srv, err := protocols.Listen(lineProto{}, "127.0.0.1:0", sink, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c, r := (&env{t: t, srv: srv}).dial()
	io.WriteString(c, "dev1,1\n")
	if got := readLine(t, r); got != "ok 1" {
		t.Fatalf("reply = %q, want ok 1", got)
	}
	sink.failNext.Store(true)
	// The second is not stored, so not acknowledged. The frames of one
	// connection are handled in order: the ACK of the third says the
	// second has been through the hook.
	io.WriteString(c, "dev1,2\ndev1,3\n")
	if got := readLine(t, r); got != "ok 3" {
		t.Fatalf("reply = %q, want ok 3", got)
	}
	if got, want := told(), []string{"1 <nil>", "1 disk full", "1 <nil>"}; !slices.Equal(got, want) {
		t.Errorf("stream listener: hook told %q, want %q", got, want)
	}

	hs, err := protocols.ListenHTTP(osmandEntry(t), "127.0.0.1:0", sink, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer hs.Close()
	for _, fail := range []bool{false, true} {
		sink.failNext.Store(fail)
		resp, err := http.Get("http://" + hs.Addr().String() + "/?id=123456&timestamp=1767225600&lat=60.0&lon=30.0")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if got, want := told(), []string{"1 <nil>", "1 disk full"}; !slices.Equal(got, want) {
		t.Errorf("HTTP listener: hook told %q, want %q", got, want)
	}
}
