package h02

import (
	"errors"

	"github.com/fleetd/fleetd/protocols"
)

var _ protocols.Datagram = (*Protocol)(nil)

// DecodeDatagram decodes a UDP packet: H02 frames carry the device id, so
// each packet stands alone. A packet holding several frames yields all
// their positions, replies and acknowledgements.
func (p *Protocol) DecodeDatagram(c *protocols.Conn, packet []byte) (protocols.Result, error) {
	var out protocols.Result
	frames := 0
	unsupported := ""
	for rest := packet; len(rest) > 0; {
		adv, frame, err := p.Split(rest, true)
		if err != nil {
			return out, err
		}
		rest = rest[adv:]
		if frame == nil {
			continue
		}
		frames++
		res, err := p.Decode(c, frame)
		if err != nil {
			return out, err
		}
		if res.UniqueID != "" {
			out.UniqueID = res.UniqueID
		}
		out.Positions = append(out.Positions, res.Positions...)
		out.Reply = append(out.Reply, res.Reply...)
		out.Ack = append(out.Ack, res.Ack...)
		if res.CommandResult != "" {
			out.CommandResult = res.CommandResult
		}
		if res.Unsupported != "" {
			unsupported = res.Unsupported
		}
	}
	if frames == 0 {
		return out, errors.New("h02: no frame in datagram")
	}
	// The listener neither stores nor answers an unsupported result, so it
	// is one only when no frame of the packet gave anything to keep.
	if len(out.Positions) == 0 && out.Reply == nil && out.Ack == nil && out.CommandResult == "" {
		out.Unsupported = unsupported
	}
	return out, nil
}
