package teltonika

import (
	"encoding/hex"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestEncode(t *testing.T) {
	custom := func(data string) model.Command {
		return model.Command{Type: "custom", Attributes: model.Attributes{"data": data}}
	}
	tests := []struct {
		name string
		cmd  model.Command
		want string
	}{
		// Traccar's TeltonikaProtocolEncoderTest vectors.
		{"custom text", custom("setdigout 11"), "00000000000000140c01050000000c7365746469676f7574203131010000bed5"},
		{"custom hex", custom("03030000000185E8"), "00000000000000100c01050000000803030000000185e8010000da8b"},
		{"engineStop", model.Command{Type: "engineStop"}, hex.EncodeToString(mustEncode(t, custom("setdigout 1")))},
		{"engineResume", model.Command{Type: "engineResume"}, hex.EncodeToString(mustEncode(t, custom("setdigout 0")))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustEncode(t, tt.cmd)
			if hex.EncodeToString(got) != tt.want {
				t.Fatalf("Encode = %x, want %s", got, tt.want)
			}
			// Our own packet must split as one frame and pass its CRC.
			prototest.OneFrame(t, New().Split, got)
			if res, err := New().Decode(nil, got); err != nil || res.ChecksumError || res.CommandResult == "" {
				t.Fatalf("Decode(own frame) = %+v, %v", res, err)
			}
		})
	}
}

func mustEncode(t *testing.T, cmd model.Command) []byte {
	t.Helper()
	b, err := New().Encode(nil, &cmd)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestEncodeRejects(t *testing.T) {
	prototest.EncodeRejects(t, New(), nil, []prototest.RejectCase{
		{Name: "unsupported", Command: model.Command{Type: "positionPeriodic"}},
		{Name: "custom number", Command: model.Command{Type: "custom", Attributes: model.Attributes{"data": 1}}},
		{Name: "custom too big", Command: model.Command{Type: "custom", Attributes: model.Attributes{"data": string(make([]byte, MaxFrame))}}},
	})
}

func TestCommandTypesAreEncodable(t *testing.T) {
	prototest.ListedCommandsEncode(t, New(), nil, model.Attributes{"data": "getinfo"})
}
