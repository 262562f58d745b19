package simulate

import (
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/catalog"
	"github.com/fleetd/fleetd/storage"
)

// testServer is a real fleetd core on a store file with one protocol
// listener on loopback, as `fleetd serve` wires them.
type testServer struct {
	t        testing.TB
	protocol string
	db       *storage.DB
	core     *app.Core
	addr     string
	listener io.Closer
}

// startServer starts protocol's listener with devices first..first+n-1
// registered under the ids the simulated devices report, on a store with
// default options.
func startServer(t testing.TB, protocol string, first int64, n int) *testServer {
	t.Helper()
	return startServerWith(t, protocol, first, n, storage.Options{})
}

func startServerWith(t testing.TB, protocol string, first int64, n int, so storage.Options) *testServer {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "fleetd.db"), so)
	if err != nil {
		t.Fatal(err)
	}
	s := &testServer{t: t, protocol: protocol, db: db, core: app.New(db, app.Options{Logger: quiet()})}
	t.Cleanup(func() {
		s.stop()
		db.Close()
	})
	if err := registerDevices(db, protocol, first, n); err != nil {
		t.Fatal(err)
	}
	s.listen("127.0.0.1:0")
	return s
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// registerDevices creates the devices in one transaction (one fsync, not
// thousands).
func registerDevices(db model.Store, protocol string, first int64, n int) error {
	return db.Update(func(tx model.Tx) error {
		for i := range int64(n) {
			id, err := UniqueID(protocol, first+i)
			if err != nil {
				return err
			}
			d := &model.Device{Name: "sim " + id, UniqueID: id, Status: model.StatusOffline, Attributes: model.Attributes{}}
			if err := tx.Devices().Create(d); err != nil {
				return err
			}
		}
		return nil
	})
}

// listen (re)starts the listener on addr.
func (s *testServer) listen(addr string) {
	s.t.Helper()
	opts := protocols.Options{MaxConnsPerIP: 100000, Logger: quiet()}
	for _, e := range catalog.All() {
		if e.Name != s.protocol {
			continue
		}
		if e.Stream != nil {
			srv, err := protocols.Listen(e.Stream, addr, s.core.Ingest, opts)
			if err != nil {
				s.t.Fatal(err)
			}
			s.addr, s.listener = srv.Addr().String(), srv
			return
		}
		srv, err := protocols.ListenHTTP(e.HTTP, addr, s.core.Ingest, opts)
		if err != nil {
			s.t.Fatal(err)
		}
		s.addr, s.listener = srv.Addr().String(), srv
		return
	}
	s.t.Fatalf("no protocol %s", s.protocol)
}

func (s *testServer) stop() {
	if s.listener != nil {
		s.listener.Close()
		s.listener = nil
	}
}

// stored counts every position in the store and checks each one is a
// fresh fix of this protocol near the fleet's city.
func (s *testServer) stored(city City) (int, error) {
	n := 0
	err := s.db.View(func(tx model.Tx) error {
		var devices []int64
		if err := tx.Devices().List(func(d *model.Device) bool { devices = append(devices, d.ID); return true }); err != nil {
			return err
		}
		for _, id := range devices {
			var bad error
			err := tx.Positions(id, time.Time{}, time.Now().Add(time.Hour), func(p *model.Position) bool {
				n++
				if p.Protocol != s.protocol || p.Outdated || distance(p.Latitude, p.Longitude, city.Lat, city.Lon) > homeRadius+5000 {
					bad = fmt.Errorf("stored position %+v is not a simulated %s fix near %s", p, s.protocol, city.Name)
				}
				return bad == nil
			})
			if err != nil || bad != nil {
				return cmp(err, bad)
			}
		}
		return nil
	})
	return n, err
}

func cmp(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
