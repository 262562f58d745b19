package chunk

import (
	"sync"

	"github.com/klauspost/compress/zstd"
)

// Body flags: how the body after the header is stored.
const (
	bodyRaw  = 0
	bodyZstd = 1
)

// maxBody bounds a decompressed body (about two million positions), so
// corrupt data cannot claim any size.
const maxBody = 64 << 20

// zstd at its default level takes another fifth off the varint body (GT06
// 18.3 to 14.7 bytes a position in chunks of 512, Teltonika 29.0 to 22.4)
// for about 150 ns a position to compress and 60 to decompress: the
// fields' bytes repeat in patterns (flags, codes, unchanged deltas) that
// no one column sees.
var (
	zstdEncoder = sync.OnceValue(func() *zstd.Encoder {
		e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithLowerEncoderMem(true))
		if err != nil {
			panic(err) // only for invalid options
		}
		return e
	})
	zstdDecoder = sync.OnceValue(func() *zstd.Decoder {
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(maxBody))
		if err != nil {
			panic(err)
		}
		return d
	})
)

// compressFrom is the fewest positions whose body is worth compressing: a
// few positions' bytes barely repeat, and zstd's fixed cost (about 15 µs a
// call) would dominate the log's one-position chunks.
const compressFrom = 16

// compress compresses the body of chunk b, which starts at bodyAt after
// its flag byte, when it holds enough positions and that makes it smaller.
func compress(b []byte, bodyAt, count int) []byte {
	if count < compressFrom {
		return b
	}
	z := zstdEncoder().EncodeAll(b[bodyAt:], nil)
	if len(z) >= len(b)-bodyAt {
		return b
	}
	b[bodyAt-1] = bodyZstd
	return append(b[:bodyAt], z...)
}

// decompress returns the body after its flag byte.
func decompress(b []byte) ([]byte, error) {
	if len(b) == 0 {
		return nil, corrupt("no body")
	}
	switch b[0] {
	case bodyRaw:
		return b[1:], nil
	case bodyZstd:
		body, err := zstdDecoder().DecodeAll(b[1:], nil)
		if err != nil {
			return nil, corrupt("zstd: " + err.Error())
		}
		return body, nil
	}
	return nil, corrupt("body flag")
}
