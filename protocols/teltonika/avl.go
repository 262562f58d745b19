package teltonika

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Codec ids.
const (
	codecGH3000 = 0x07 // GH3000 personal trackers: bit-masked records
	codec8      = 0x08
	codec8E     = 0x8E // extended: 2-byte IO ids and counts, variable-length IO
	codec12     = 0x0C // commands and their answers (GPRS messages)
	codec13     = 0x0D // device messages with a timestamp
	codec14     = 0x0E // commands and answers carrying the IMEI
	codec16     = 0x10 // 2-byte IO ids, generation type
	minCodec    = 3    // codec byte and the two record counts
)

// Message types of codec 12/13/14.
const (
	typeCamera = 0x0D // codec 12 camera (photo transfer) message
	typeNack   = 0x11 // codec 14: the IMEI did not match, command refused
)

// layout is how a codec encodes a record's IO section.
type layout struct {
	wideIDs    bool // 2-byte IO ids and event id
	wideCounts bool // 2-byte element counts
	generation bool // generation type byte after the event id
	sixteen    bool // a section of 16-byte elements after the 8-byte ones
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
	command   string // codec 12/13/14 message text
	message   bool   // codec 12/13/14: a message, which is not acknowledged
	count     int    // records announced in the header, acknowledged as such
	// unsupported says why the data was not decoded (unknown codec, camera
	// message); such data is neither stored nor acknowledged.
	unsupported string
}

// decodeAVL decodes codec, record count, records and closing count.
func decodeAVL(c *cursor, m models) (avlData, error) {
	codec := c.byte()
	count := c.byte()
	if err := c.err(); err != nil {
		return avlData{}, err
	}
	out := avlData{count: count}
	switch l, ok := layouts[codec]; {
	case codec == codec12 || codec == codec13 || codec == codec14:
		out.message = true
		readMessages(c, codec, count, &out)
		if err := c.err(); err != nil {
			return out, err
		}
		return out, checkFixes(out.positions)
	case codec == codecGH3000:
		positions, _, err := readRecords(*c, count, readGH3000)
		if err != nil {
			return out, err
		}
		out.positions = positions
	case ok:
		positions, rest, err := readRecords(*c, count, func(c *cursor) *model.Position { return readRecord(c, l, m) })
		if err != nil || !closes(rest, count) {
			// Some firmware adds a section of 16-byte elements (Traccar's
			// "extended" option): when the records do not end at the
			// closing count but do with that section, that is the layout.
			l.sixteen = true
			p16, rest16, err16 := readRecords(*c, count, func(c *cursor) *model.Position { return readRecord(c, l, m) })
			if err16 == nil && closes(rest16, count) {
				positions, err = p16, nil
			}
		}
		if err != nil {
			return out, err
		}
		out.positions = positions
	default:
		out.unsupported = fmt.Sprintf("codec 0x%02x not decoded", codec)
		return out, nil
	}
	return out, checkFixes(out.positions)
}

func readRecords(c cursor, count int, read func(*cursor) *model.Position) ([]*model.Position, []byte, error) {
	positions := make([]*model.Position, 0, count)
	for range count {
		p := read(&c)
		if err := c.err(); err != nil {
			return nil, nil, err
		}
		positions = append(positions, p)
	}
	return positions, c.buf, nil
}

// closes reports whether rest is exactly the closing record count.
func closes(rest []byte, count int) bool { return len(rest) == 1 && int(rest[0]) == count }

func checkFixes(positions []*model.Position) error {
	for _, p := range positions {
		if err := protocols.CheckFix(p); err != nil {
			return err
		}
	}
	return nil
}

func newPosition() *model.Position {
	// Sized for a typical record: GNSS attributes plus a dozen IO elements.
	return &model.Position{Protocol: Name, Attributes: make(model.Attributes, 16)}
}

// readRecord reads one AVL record: timestamp (ms), priority, longitude and
// latitude (1e-7 degrees, signed), altitude, angle, satellites, speed (km/h),
// then the IO section.
func readRecord(c *cursor, l layout, m models) *model.Position {
	p := newPosition()
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
			setIO(p, m, id, v, width)
		}
	}
	if l.sixteen {
		for range l.count(c) {
			id := l.id(c)
			v := c.take(16)
			if c.failed {
				return p
			}
			p.Attributes["io"+strconv.Itoa(id)] = hex.EncodeToString(v)
		}
	}
	if l.variable {
		for range c.short() {
			id, n := c.short(), c.short()
			v := c.take(n)
			if c.failed {
				return p
			}
			setVariableIO(p, id, v)
		}
	}
	finishIO(p, m)
	return p
}

// readMessages reads count codec 12 (type, size, data), codec 13 (type,
// size, timestamp, data) or codec 14 (type, size, IMEI, data) messages.
// Text is kept as is, anything else as hex, as Traccar does. Two kinds of
// device message are data rather than answers and become positions without
// a location: a driver card reading ("GTSL|...|<driver id>|...") and axle
// loads ("UUUUww<12 values>;SSS").
func readMessages(c *cursor, codec, count int, out *avlData) {
	texts := make([]string, 0, count)
	for range count {
		typ := c.byte()
		size := int(c.value(4))
		var at time.Time
		switch codec {
		case codec13:
			at = time.Unix(int64(c.value(4)), 0).UTC()
			size -= 4
		case codec14:
			c.take(8) // IMEI as BCD digits
			size -= 8
		}
		if codec == codec12 && typ == typeCamera {
			out.unsupported = "codec 12 camera message not decoded"
			return
		}
		data := c.take(size)
		if c.failed {
			return
		}
		if codec == codec14 && typ == typeNack {
			texts = append(texts, "nACK: the IMEI did not match, the command was not run")
			continue
		}
		text, printable := messageText(data)
		if p := messagePosition(text, printable, at); p != nil {
			out.positions = append(out.positions, p)
			continue
		}
		texts = append(texts, text)
	}
	out.command = strings.Join(texts, "\n")
}

// messageText is the trimmed text of printable data, else its hex.
func messageText(data []byte) (string, bool) {
	for _, b := range data {
		if (b < 0x20 || b >= 0x7F) && b != '\r' && b != '\n' {
			return hex.EncodeToString(data), false
		}
	}
	return strings.TrimSpace(string(data)), true
}

// messagePosition is the position a driver card or axle load message
// carries, nil for any other message.
func messagePosition(text string, printable bool, at time.Time) *model.Position {
	if !printable {
		return nil
	}
	attrs := model.Attributes{}
	switch {
	case strings.HasPrefix(text, "GTSL"):
		fields := strings.Split(text, "|")
		if len(fields) < 5 || fields[4] == "" {
			return nil
		}
		attrs["driverUniqueId"] = fields[4]
	case strings.HasPrefix(text, "UUUUww") && strings.HasSuffix(text, "SSS") && len(text) >= 10:
		values := strings.Split(text[6:len(text)-4], ";")
		if len(values) < 12 {
			return nil
		}
		names := [12]string{"axle1", "axle2", "axle3", "axle4", "axle5", "axle6", "axle7", "axle8",
			"loadTruck", "loadTrailer", "totalTruck", "totalTrailer"}
		for i, name := range names {
			v, err := strconv.ParseFloat(values[i], 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil
			}
			attrs[name] = v
		}
	default:
		return nil
	}
	return &model.Position{Protocol: Name, Outdated: true, DeviceTime: at, FixTime: at, Attributes: attrs}
}
