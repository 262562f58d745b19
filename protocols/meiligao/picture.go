package meiligao

import (
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// A picture comes as 0x0800 (start, with the image's index), its 0x9988
// packets ("index, footage (2 bytes), packets, packet number, JPEG
// bytes"), 0x0F80 (done), and then the 0x9977 report of the position it
// was taken at, which carries it as its "image" file, as in Traccar.

// picture is one being received on a connection; its bytes are in the
// connection's Parts.
type picture struct {
	index byte
}

// maxPhoto bounds a picture's bytes (a camera's 640x480 JPEG is about
// 50 KB).
const maxPhoto = 2 << 20

// photoHeader is the bytes of a 0x9988 frame's data before the JPEG's.
const photoHeader = 5

// startPhoto begins a picture on a connection the listener has identified
// (others keep none).
func startPhoto(c *protocols.Conn, index byte) {
	if held := c.Parts(); held != nil {
		held.Drop()
		c.State = &picture{index: index}
	}
}

// addPhotoPacket adds a 0x9988 frame's bytes to the picture the
// connection is receiving. A packet for another picture, one with a bad
// CRC, or one that takes the picture over maxPhoto or past the shared
// media budget drops the picture.
func addPhotoPacket(c *protocols.Conn, f frame) {
	held := c.Parts()
	if held == nil {
		return
	}
	ph, _ := c.State.(*picture)
	switch {
	case ph == nil:
	case !f.crcOK || len(f.data) < photoHeader || f.data[0] != ph.index || !held.Add(f.data[photoHeader:], maxPhoto):
		c.State = nil
		held.Drop()
	}
}

// takePhoto hands the connection's picture to the 0x9977 report.
func takePhoto(c *protocols.Conn) *model.Media {
	held := c.Parts()
	if held == nil {
		return nil
	}
	ph, _ := c.State.(*picture)
	c.State = nil
	data := held.Take()
	if ph == nil || len(data) == 0 {
		return nil
	}
	return protocols.JPEG(data)
}
