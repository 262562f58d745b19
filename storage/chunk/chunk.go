// Package chunk encodes a run of one device's positions, in store order
// (fix time, then id), into one compact byte slice and decodes it back:
// the first step of a position store built for time series (issue 14).
//
// Encode makes a chunk of positions; Decode returns them all, DecodeEach
// hands them out one at a time (a reader can stop early without decoding
// the rest), ReadHeader tells the count, device, first and last fix time
// and id without decoding any. A chunk starts with a version byte.
//
// Reads are exact: the positions Decode returns marshal (encoding/json) to
// the same bytes as the positions today's JSON store returns for the same
// input, that is json.Marshal of json.Unmarshal of json.Marshal(original).
// Encode does the JSON canonicalisation itself: integer attributes become
// float64, other value types go through encoding/json, strings with
// invalid UTF-8 are coerced as encoding/json coerces them, times keep their
// instant and zone offset. What json.Marshal refuses (NaN, infinities, years
// past 9999) Encode refuses too.
//
// # Format (version 1)
//
// A chunk is a header and a body. The header is readable on its own
// (ReadHeader) to tell a chunk's device, count and range without decoding:
//
//	version byte (1)
//	uvarint  count
//	varint   deviceId
//	time     first fixTime, time last fixTime (varint Unix seconds, uvarint ns; UTC)
//	varint   first id, varint last id
//
// The body, like Gorilla / Prometheus chunks, codes each value against the
// position before it, in byte-aligned varints rather than Gorilla's bit
// stream: decoding takes one to two microseconds a position, most of it
// allocating the maps model.Position holds, so bit packing would save a
// few bytes for little speed. The parts:
//
//   - six column schemes, for latitude, longitude, altitude, speed,
//     course and accuracy. A scheme names an exact scale that holds for
//     every value of the column in the chunk (v = n/1e7 as Teltonika,
//     n/1e6 as text with six decimals, n/1800000 as GT06 computes,
//     n*0.539957 for km/h in knots, ...): a value is then the zigzag
//     varint delta of n. Scheme 0 is the float64 XOR of the previous value
//     (a byte for the count of zero bytes at each end, then the bytes
//     between); scheme 255 a column with one value, written once.
//   - then per position: a uvarint of flags (valid, outdated, and which of
//     the rarely changing fields follow because they changed: device time
//     apart from the fix time, the fix time's nanoseconds, network,
//     attribute key set, zone offsets, protocol, address, geofence ids);
//     the fix time as a delta of delta of seconds; the id as a zigzag
//     delta; the server (and device) time as a delta from the fix time;
//     the columns; the changed fields; the attribute values.
//
// Attribute keys and strings are per-chunk dictionaries: a string is
// written once and referenced by index after. Per position, two bits a key
// (sorted) tell whether its value is unchanged, changed with the same tag
// as before (payload only), or tag and payload follow; a position with the
// previous position's bits writes none. A tag is null, false, true,
// string, array, object, float XOR of the key's previous number, or a
// decimal with k digits after the point, v = n/10^k, as the zigzag delta
// of n from the key's previous n. Network values, arrays and objects use
// the same coding; a network equal to the previous one costs nothing.
//
// After the header a flag byte says whether the body is raw (0) or zstd
// compressed (1): Encode compresses when that is smaller.
//
// Encode refuses positions of several devices or out of store order
// (ErrOrder). Decode returns an error wrapping ErrCorrupt for data it
// cannot read, and never panics.
package chunk

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// Version is the format version, the first byte of every chunk.
const Version = 1

// Header is what a reader learns of a chunk without decoding its positions.
type Header struct {
	Count             int
	DeviceID          int64
	FirstFix, LastFix time.Time // UTC
	FirstID, LastID   int64
}

// ErrCorrupt is wrapped by every error Decode returns for bad data.
var ErrCorrupt = errors.New("chunk: corrupt data")

func corrupt(what string) error { return fmt.Errorf("%w: %s", ErrCorrupt, what) }

// ReadHeader reads data's header.
func ReadHeader(data []byte) (Header, error) {
	h, _, err := readHeader(data)
	return h, err
}

func appendHeader(b []byte, h *Header) []byte {
	b = append(b, Version)
	b = binary.AppendUvarint(b, uint64(h.Count))
	b = binary.AppendVarint(b, h.DeviceID)
	for _, t := range [2]time.Time{h.FirstFix, h.LastFix} {
		b = binary.AppendVarint(b, t.Unix())
		b = binary.AppendUvarint(b, uint64(t.Nanosecond()))
	}
	b = binary.AppendVarint(b, h.FirstID)
	return binary.AppendVarint(b, h.LastID)
}

// readHeader returns the header and the rest of data.
func readHeader(data []byte) (Header, []byte, error) {
	var h Header
	if len(data) == 0 {
		return h, nil, corrupt("empty")
	}
	if data[0] != Version {
		return h, nil, fmt.Errorf("%w: version %d, want %d", ErrCorrupt, data[0], Version)
	}
	r := reader{b: data[1:]}
	count := r.uvarint()
	// Every position takes a byte of the body at least, which decompresses
	// to maxBody at most (a compressed body can take less than a byte a
	// position: decoders check the count against the body).
	if count > maxBody {
		return h, nil, corrupt("count")
	}
	h.Count = int(count)
	h.DeviceID = r.varint()
	for _, t := range [2]*time.Time{&h.FirstFix, &h.LastFix} {
		sec, ns := r.varint(), r.uvarint()
		if ns >= 1e9 {
			return h, nil, corrupt("header time")
		}
		*t = time.Unix(sec, int64(ns)).UTC()
	}
	h.FirstID, h.LastID = r.varint(), r.varint()
	if r.err != nil {
		return h, nil, r.err
	}
	return h, r.b, nil
}
