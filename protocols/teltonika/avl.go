package teltonika

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Codec ids.
const (
	codec8   = 0x08
	codec8E  = 0x8E // extended: 2-byte IO ids and counts, variable-length IO
	codec12  = 0x0C // commands and their answers (GPRS messages)
	codec13  = 0x0D // device messages with a timestamp
	codec16  = 0x10 // 2-byte IO ids, generation type
	minCodec = 3    // codec byte and the two record counts
)

// layout is how a codec encodes a record's IO section.
type layout struct {
	wideIDs    bool // 2-byte IO ids and event id
	wideCounts bool // 2-byte element counts
	generation bool // generation type byte after the event id
	variable   bool // trailing section of variable-length elements
}

var layouts = map[int]layout{
	codec8:  {},
	codec8E: {wideIDs: true, wideCounts: true, variable: true},
	codec16: {wideIDs: true, generation: true},
}

func (l layout) id(c *cursor) int {
	if l.wideIDs {
		return c.short()
	}
	return c.byte()
}

func (l layout) count(c *cursor) int {
	if l.wideCounts {
		return c.short()
	}
	return c.byte()
}

// avlData is the decoded codec section shared by TCP and UDP packets.
type avlData struct {
	positions []*model.Position
	command   string // codec 12/13 message text
	message   bool   // codec 12/13: a message, which is not acknowledged
	count     int    // records announced in the header, acknowledged as such
}

// decodeAVL decodes codec, record count, records and closing count.
func decodeAVL(c *cursor) (avlData, error) {
	codec := c.byte()
	count := c.byte()
	if err := c.err(); err != nil {
		return avlData{}, err
	}
	out := avlData{count: count, message: codec == codec12 || codec == codec13}
	if out.message {
		texts := make([]string, 0, count)
		for range count {
			texts = append(texts, readMessage(c, codec))
		}
		out.command = strings.Join(texts, "\n")
		return out, c.err()
	}
	l, ok := layouts[codec]
	if !ok {
		return out, fmt.Errorf("teltonika: unsupported codec %#02x", codec)
	}
	for range count {
		p := readRecord(c, l)
		if err := c.err(); err != nil {
			return out, err
		}
		if err := protocols.CheckFix(p); err != nil {
			return out, err
		}
		out.positions = append(out.positions, p)
	}
	return out, nil
}

// readRecord reads one AVL record: timestamp (ms), priority, longitude and
// latitude (1e-7 degrees, signed), altitude, angle, satellites, speed (km/h),
// then the IO section.
func readRecord(c *cursor, l layout) *model.Position {
	// Sized for a typical record: GNSS attributes plus a dozen IO elements.
	p := &model.Position{Protocol: Name, Attributes: make(model.Attributes, 16)}
	t := protocols.UnixMilli(int64(c.value(8)))
	p.DeviceTime, p.FixTime = t, t
	p.Attributes["priority"] = c.byte()
	p.Longitude = float64(int32(c.value(4))) / 1e7
	p.Latitude = float64(int32(c.value(4))) / 1e7
	p.Altitude = float64(int16(c.value(2)))
	p.Course = float64(c.short())
	sats := c.byte()
	p.Attributes["sat"] = sats
	// Teltonika sends the last known location with 0 satellites when it
	// has no fix.
	p.Valid = sats != 0
	p.Speed = float64(c.short()) * kphToKnots
	p.Attributes["event"] = l.id(c)
	if l.generation {
		c.byte()
	}
	l.count(c) // total element count, implied by the per-width counts
	for _, width := range []int{1, 2, 4, 8} {
		for range l.count(c) {
			id := l.id(c)
			v := c.value(width)
			if c.failed {
				return p
			}
			setIO(p, id, v, width)
		}
	}
	if l.variable {
		for range c.short() {
			id, n := c.short(), c.short()
			v := c.take(n)
			if c.failed {
				return p
			}
			if id == 256 {
				p.Attributes["vin"] = string(v)
			} else {
				p.Attributes["io"+strconv.Itoa(id)] = hex.EncodeToString(v)
			}
		}
	}
	setNetwork(p)
	return p
}

// readMessage reads a codec 12 (type, size, text) or codec 13 (type, size,
// timestamp, text) message. Printable text is kept as is, anything else as
// hex, as Traccar does.
func readMessage(c *cursor, codec int) string {
	c.byte() // type: 0x05 command, 0x06 response
	size := int(c.value(4))
	if codec == codec13 {
		c.value(4) // timestamp, seconds
		size -= 4
	}
	data := c.take(size)
	for _, b := range data {
		if (b < 0x20 || b >= 0x7F) && b != '\r' && b != '\n' {
			return hex.EncodeToString(data)
		}
	}
	return strings.TrimSpace(string(data))
}
