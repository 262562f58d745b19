package protocols

import (
	"sync/atomic"

	"github.com/fleetd/fleetd/app/model"
)

// MediaBudget bounds the bytes that files being put together from many
// frames (a watch's voice message in chunks, a camera's picture in
// packets) hold, together, on every connection. Like unfinished frames,
// they are held between frames, so without a bound many connections could
// hold the server's memory. 32 MiB is room for about 300 photos of a
// dash camera in flight at once.
const MediaBudget = 32 << 20

// mediaHeld is the bytes all connections' Parts hold now.
var mediaHeld atomic.Int64

// MediaHeld is the bytes that files being put together hold now, on every
// connection (fleetd_device_media_bytes).
func MediaHeld() int64 { return mediaHeld.Load() }

// Parts is the file a connection is putting together, one at a time. Its
// bytes count against MediaBudget until the file is taken, dropped, or
// the connection ends. Only a connection whose device the listener has
// identified keeps parts (see Conn.Parts): an unknown id holds nothing.
type Parts struct {
	data []byte
}

// Parts is the file this connection is putting together, or nil when the
// connection has not been identified as a registered device's (also for
// a datagram, and for the shared port's first look at a connection).
func (c *Conn) Parts() *Parts {
	if c == nil || c.UniqueID == "" {
		return nil
	}
	if c.parts == nil {
		c.parts = &Parts{}
	}
	return c.parts
}

// Release gives up what the connection holds for files not yet whole; the
// listener calls it when the connection ends.
func (c *Conn) Release() {
	if c != nil && c.parts != nil {
		c.parts.Drop()
	}
}

// Add appends b, unless the file would pass max bytes or the shared budget
// has no room: then the parts are dropped and Add reports false.
func (p *Parts) Add(b []byte, max int) bool {
	n := int64(len(b))
	if len(p.data)+len(b) > max {
		p.Drop()
		return false
	}
	if mediaHeld.Add(n) > MediaBudget {
		mediaHeld.Add(-n)
		p.Drop()
		return false
	}
	p.data = append(p.data, b...)
	return true
}

// Cut removes the last n bytes (a chunk sent again replaces itself).
func (p *Parts) Cut(n int) {
	n = min(n, len(p.data))
	p.data = p.data[:len(p.data)-n]
	mediaHeld.Add(-int64(n))
}

// Bytes are the bytes held, until the next change.
func (p *Parts) Bytes() []byte { return p.data }

// Take returns the file's bytes and starts a new one.
func (p *Parts) Take() []byte {
	b := p.data
	p.Drop()
	return b
}

// Drop gives the bytes up.
func (p *Parts) Drop() {
	mediaHeld.Add(-int64(len(p.data)))
	p.data = nil
}

// JPEG is a picture a device sent, as its position's "image" file.
func JPEG(data []byte) *model.Media {
	return &model.Media{Key: model.MediaImage, Ext: "jpg", Type: "image/jpeg", Data: data}
}
