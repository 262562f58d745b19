package meiligao

import (
	"encoding/binary"
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// deviceFrame is a device's frame ("$$") with a CRC that holds.
func deviceFrame(id []byte, cmd int, data []byte) []byte {
	n := header + len(data) + 4
	b := append([]byte{'$', '$', byte(n >> 8), byte(n)}, id...)
	b = append(append(b, byte(cmd>>8), byte(cmd)), data...)
	b = binary.BigEndian.AppendUint16(b, crc16(b))
	return append(b, '\r', '\n')
}

// TestPictureTransfer: the packets of a picture are joined on the
// connection and carried by the 0x9977 report that follows them.
func TestPictureTransfer(t *testing.T) {
	report, err := parseFrame(prototest.Unhex(t, pos7))
	if err != nil {
		t.Fatal(err)
	}
	id := report.id
	packet := func(index, n byte, jpeg string) []byte {
		return deviceFrame(id, cmdPhotoData, append([]byte{index, 0, 0, 2, n}, jpeg...))
	}
	withPicture := deviceFrame(id, cmdPositionImage, append([]byte{2, 0}, report.data...))
	start, end := deviceFrame(id, cmdPhotoStart, []byte{2}), deviceFrame(id, cmdPhotoEnd, []byte{2})
	cases := []struct {
		name     string
		frames   [][]byte
		picture  string // "": the report has none
		stranger bool   // on a connection the listener has not identified
	}{
		{"two packets", [][]byte{start, packet(2, 0, "\xff\xd8ab"), packet(2, 1, "cd\xff\xd9"), end, withPicture}, "\xff\xd8abcd\xff\xd9", false},
		{"no picture announced", [][]byte{packet(2, 0, "\xff\xd8ab"), withPicture}, "", false},
		{"a packet of another picture", [][]byte{start, packet(2, 0, "\xff\xd8ab"), packet(3, 1, "cd"), end, withPicture}, "", false},
		// The capture's packet of picture 2, whose CRC is wrong.
		{"a packet with a bad CRC", [][]byte{start, packet(2, 0, "\xff\xd8ab"), prototest.Unhex(t, photoData), end, withPicture}, "", false},
		{"only the report", [][]byte{withPicture}, "", false},
		{"a connection not identified", [][]byte{start, packet(2, 0, "\xff\xd8ab"), packet(2, 1, "cd\xff\xd9"), end, withPicture}, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			conn := &protocols.Conn{UniqueID: "190820157"} // the listener has identified the device
			if tc.stranger {
				conn = &protocols.Conn{}
			}
			var res protocols.Result
			for _, f := range tc.frames {
				var err error
				if res, err = testProtocol().Decode(conn, f); err != nil {
					t.Fatal(err)
				}
			}
			if len(res.Positions) != 1 || !res.Positions[0].Valid {
				t.Fatalf("the report: %+v", res)
			}
			m := res.Positions[0].Media
			switch {
			case tc.picture == "" && m != nil:
				t.Errorf("a picture %q", m.Data)
			case tc.picture != "" && (m == nil || string(m.Data) != tc.picture || m.Key != "image" || m.Type != "image/jpeg"):
				t.Errorf("picture %+v, want %q", m, tc.picture)
			}
			if conn.State != nil {
				t.Errorf("the connection keeps %v after the report", conn.State)
			}
		})
	}
}
