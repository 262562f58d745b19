// Package catalog lists the device protocols fleetd ships, with Traccar's
// default ports, so the composition root and the docs have one source.
package catalog

import (
	"net/url"
	"time"

	"github.com/fleetd/fleetd/app/config"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/castel"
	"github.com/fleetd/fleetd/protocols/eelink"
	"github.com/fleetd/fleetd/protocols/gl200"
	"github.com/fleetd/fleetd/protocols/gps103"
	"github.com/fleetd/fleetd/protocols/gt06"
	"github.com/fleetd/fleetd/protocols/h02"
	"github.com/fleetd/fleetd/protocols/jt600"
	"github.com/fleetd/fleetd/protocols/jt808"
	"github.com/fleetd/fleetd/protocols/meiligao"
	"github.com/fleetd/fleetd/protocols/meitrack"
	"github.com/fleetd/fleetd/protocols/osmand"
	"github.com/fleetd/fleetd/protocols/ruptela"
	"github.com/fleetd/fleetd/protocols/suntech"
	"github.com/fleetd/fleetd/protocols/t55"
	"github.com/fleetd/fleetd/protocols/teltonika"
	"github.com/fleetd/fleetd/protocols/tk103"
	"github.com/fleetd/fleetd/protocols/trv"
	"github.com/fleetd/fleetd/protocols/watch"
	"github.com/fleetd/fleetd/protocols/wialon"
)

// Entry is one protocol: exactly one of Stream and HTTP is set.
type Entry struct {
	Name        string
	DefaultPort int
	Stream      protocols.Stream
	HTTP        protocols.HTTPProtocol
	// UDP reports whether the protocol also listens on UDP (same port).
	UDP bool
}

// All returns every protocol, in port order.
func All() []Entry {
	entries := []Entry{
		{DefaultPort: 5001, Stream: gps103.New()},
		{DefaultPort: 5002, Stream: tk103.New()},
		{DefaultPort: 5004, Stream: gl200.New()},
		{DefaultPort: 5005, Stream: t55.New()},
		{DefaultPort: 5009, Stream: meiligao.New()},
		{DefaultPort: 5010, Stream: trv.New()},
		{DefaultPort: 5011, Stream: suntech.New()},
		{DefaultPort: 5013, Stream: h02.New()},
		{DefaultPort: 5014, Stream: jt600.New()},
		{DefaultPort: 5015, Stream: jt808.New()},
		{DefaultPort: 5020, Stream: meitrack.New()},
		{DefaultPort: 5023, Stream: gt06.New()},
		{DefaultPort: 5027, Stream: teltonika.New()},
		{DefaultPort: 5039, Stream: wialon.New()},
		{DefaultPort: 5046, Stream: ruptela.New()},
		{DefaultPort: 5055, HTTP: osmandHTTP{}},
		{DefaultPort: 5064, Stream: eelink.New()},
		{DefaultPort: 5086, Stream: castel.New()},
		{DefaultPort: 5093, Stream: watch.New()},
	}
	for i := range entries {
		e := &entries[i]
		if e.Stream != nil {
			e.Name = e.Stream.Name()
			_, e.UDP = e.Stream.(protocols.Datagram)
		} else {
			e.Name = e.HTTP.Name()
		}
	}
	return entries
}

// AutoPort is the shared port's default: one port for every protocol
// (protocols.auto).
const AutoPort = 5000

// ConfigDefaults is what the config registry needs of the device
// listeners: every protocol with its default port, and the listeners'
// default frame limits.
func ConfigDefaults() config.DeviceDefaults {
	d := config.DeviceDefaults{FrameTimeout: protocols.DefaultFrameTimeout, FrameBudget: protocols.DefaultFrameBudget}
	d.Protocols = append(d.Protocols, config.ProtocolDefault{Name: protocols.AutoName, Port: AutoPort,
		Doc: "Listen on the shared port, where fleetd recognises every protocol it speaks from a connection's (or datagram's) first bytes: point any supported tracker at it."})
	for _, e := range All() {
		d.Protocols = append(d.Protocols, config.ProtocolDefault{Name: e.Name, Port: e.DefaultPort})
	}
	return d
}

// CommandTypes maps each protocol to the command types it encodes, for
// app.Options.CommandTypes.
func CommandTypes() map[string][]string {
	out := map[string][]string{}
	for _, e := range All() {
		if e.Stream != nil {
			out[e.Name] = e.Stream.CommandTypes()
		} else {
			out[e.Name] = e.HTTP.CommandTypes()
		}
	}
	return out
}

// osmandHTTP adapts the osmand package's functions to HTTPProtocol.
type osmandHTTP struct{}

func (osmandHTTP) Name() string { return osmand.Name }

func (osmandHTTP) Decode(method, contentType string, query url.Values, body []byte, now time.Time) (string, []*model.Position, error) {
	return osmand.Decode(method, contentType, query, body, now)
}

func (osmandHTTP) CommandTypes() []string { return osmand.CommandTypes() }

func (osmandHTTP) EncodeCommand(cmd *model.Command) (string, error) { return osmand.EncodeCommand(cmd) }
