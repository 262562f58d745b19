package castel

import (
	"encoding/binary"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// petrolControl is the fuel pump relay state each command sets: 1 cuts
// the fuel supply (engine stop), 0 restores it.
var petrolControl = map[string]byte{"engineStop": 1, "engineResume": 0}

// CommandTypes implements protocols.Stream.
func (*Protocol) CommandTypes() []string { return []string{"engineResume", "engineStop"} }

// Encode implements protocols.Stream: a CC petrol control frame (type
// 0x4583, version 1) addressed to the device's id.
func (*Protocol) Encode(c *protocols.Conn, cmd *model.Command) ([]byte, error) {
	if cmd == nil {
		return nil, model.Invalid("no command")
	}
	state, ok := petrolControl[cmd.Type]
	if !ok {
		return nil, model.Invalid("command %q is not supported by this device protocol", cmd.Type)
	}
	if c == nil || c.UniqueID == "" || len(c.UniqueID) > 20 {
		return nil, model.Invalid("the device id must have 1 to 20 characters")
	}
	out := append([]byte{'@', '@', 0, 0, 1}, c.UniqueID...)
	out = append(out, make([]byte, 20-len(c.UniqueID))...)
	out = binary.BigEndian.AppendUint16(out, ccPetrolControl)
	return finish(append(out, state)), nil
}
