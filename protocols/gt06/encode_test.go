package gt06

import (
	"encoding/hex"
	"errors"
	"testing"

	"github.com/fleetd/fleetd/app"
)

func TestEncode(t *testing.T) {
	tests := []struct {
		name string
		cmd  app.Command
		want string
	}{
		// Traccar's Gt06ProtocolEncoderTest vector.
		{"engineStop", app.Command{Type: "engineStop"}, "787812800c0000000052656c61792c312300009dee0d0a"},
		{"engineResume", app.Command{Type: "engineResume"},
			"787812800c0000000052656c61792c3023" + "0000" + crcHex("12800c0000000052656c61792c30230000") + "0d0a"},
		{"custom", app.Command{Type: "custom", Attributes: app.Attributes{"data": "WHERE#"}},
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
			adv, tok, err := New().Split(got, false)
			if err != nil || adv != len(got) || len(tok) != len(got) {
				t.Fatalf("Split(own frame) = %d, %x, %v", adv, tok, err)
			}
			if f, err := parseFrame(got); err != nil || f.crcBad {
				t.Fatalf("parseFrame(own frame) = %+v, %v", f, err)
			}
		})
	}
}

func TestEncodeRejects(t *testing.T) {
	long := make([]byte, maxCommandText+1)
	for i := range long {
		long[i] = 'a'
	}
	for name, cmd := range map[string]app.Command{
		"unsupported":    {Type: "rebootDevice"},
		"custom no data": {Type: "custom"},
		"custom number":  {Type: "custom", Attributes: app.Attributes{"data": 5}},
		"custom too big": {Type: "custom", Attributes: app.Attributes{"data": string(long)}},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := New().Encode(nil, &cmd); !errors.Is(err, app.ErrInvalid) {
				t.Fatalf("err = %v, want app.ErrInvalid", err)
			}
		})
	}
}

func TestCommandTypesAreEncodable(t *testing.T) {
	for _, typ := range New().CommandTypes() {
		cmd := app.Command{Type: typ, Attributes: app.Attributes{"data": "STATUS#"}}
		if _, err := New().Encode(nil, &cmd); err != nil {
			t.Errorf("%s: %v", typ, err)
		}
	}
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
			frame := response(tt.long, tt.typ, unhex(t, tt.content), []byte{0, 5})
			res, err := New().Decode(nil, frame)
			if err != nil || res.CommandResult != tt.want || len(res.Positions) != 0 || res.Reply != nil || res.Ack != nil {
				t.Fatalf("result %+v, err %v; want %q", res, err, tt.want)
			}
		})
	}
}
