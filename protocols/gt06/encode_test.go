package gt06

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestEncode(t *testing.T) {
	tests := []struct {
		name string
		cmd  model.Command
		want string
	}{
		// Traccar's Gt06ProtocolEncoderTest vector.
		{"engineStop", model.Command{Type: "engineStop"}, "787812800c0000000052656c61792c312300009dee0d0a"},
		{"engineResume", model.Command{Type: "engineResume"},
			"787812800c0000000052656c61792c3023" + "0000" + crcHex("12800c0000000052656c61792c30230000") + "0d0a"},
		{"custom", model.Command{Type: "custom", Attributes: model.Attributes{"data": "WHERE#"}},
			"787810800a00000000574845524523" + "0000" + crcHex("10800a000000005748455245230000") + "0d0a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := New().Encode(nil, &tt.cmd)
			if err != nil {
				t.Fatal(err)
			}
			if hex.EncodeToString(got) != tt.want {
				t.Fatalf("Encode = %x, want %s", got, tt.want)
			}
			// The device side must read our frame back as one valid frame.
			prototest.OneFrame(t, New().Split, got)
			if f, err := parseFrame(got); err != nil || f.crcBad {
				t.Fatalf("parseFrame(own frame) = %+v, %v", f, err)
			}
		})
	}
}

func TestEncodeRejects(t *testing.T) {
	prototest.EncodeRejects(t, New(), nil, []prototest.RejectCase{
		{Name: "unsupported", Command: model.Command{Type: "rebootDevice"}},
		{Name: "custom number", Command: model.Command{Type: "custom", Attributes: model.Attributes{"data": 5}}},
		{Name: "custom too big", Command: model.Command{Type: "custom", Attributes: model.Attributes{"data": strings.Repeat("a", maxCommandText+1)}}},
	})
}

func TestCommandTypesAreEncodable(t *testing.T) {
	prototest.ListedCommandsEncode(t, New(), nil, model.Attributes{"data": "STATUS#"})
}

func TestCommandResult(t *testing.T) {
	text := hex.EncodeToString([]byte("Relay,OK!!!"))
	tests := map[string]struct {
		long          bool
		typ           int
		content, want string
	}{
		// 0x15: length 0x0f = server flag (4) + text (11), then language.
		"0x15 ascii": {false, msgString, "0f00000000" + text + "0002", "Relay,OK!!!"},
		// 0x21: server flag, encoding 1 = ASCII, text.
		"0x21 ascii": {true, msgStringInfo, "0000000001" + text, "Relay,OK!!!"},
		// 0x21 with encoding 2 = UTF-16BE.
		"0x21 utf16": {true, msgStringInfo, "0000000002004f004b", "OK"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			frame := response(tt.long, tt.typ, prototest.Unhex(t, tt.content), []byte{0, 5})
			res, err := New().Decode(nil, frame)
			if err != nil || res.CommandResult != tt.want || len(res.Positions) != 0 || res.Reply != nil {
				t.Fatalf("result %+v, err %v; want %q", res, err, tt.want)
			}
			// 0x15 is acknowledged once the result is recorded (as Traccar
			// answers it); 0x21 gets no answer.
			var ack []byte
			if tt.typ == msgString {
				ack = response(false, msgString, nil, []byte{0, 5})
			}
			if !bytes.Equal(res.Ack, ack) {
				t.Fatalf("Ack = %x, want %x", res.Ack, ack)
			}
		})
	}
}
