package wialon

import (
	"errors"

	"github.com/fleetd/fleetd/protocols"
)

// DecodeDatagram decodes a UDP packet: "<imei>#<type>#..." or
// "2.0;<imei>#<type>#...", the device named in front since there is no
// login. A datagram holding several lines yields all their positions and
// answers.
func (p *Protocol) DecodeDatagram(c *protocols.Conn, data []byte) (protocols.Result, error) {
	var out protocols.Result
	lines := 0
	for rest := data; len(rest) > 0; {
		adv, line, err := p.Split(rest, true)
		if err != nil {
			return out, err
		}
		rest = rest[adv:]
		if line == nil {
			continue
		}
		lines++
		res, err := p.Decode(c, line)
		if err != nil {
			return out, err
		}
		if res.UniqueID != "" {
			if out.UniqueID != "" && out.UniqueID != res.UniqueID {
				return out, errors.New("wialon: datagram names two devices")
			}
			out.UniqueID = res.UniqueID
		}
		out.Positions = append(out.Positions, res.Positions...)
		out.Reply = append(out.Reply, res.Reply...)
		out.Ack = append(out.Ack, res.Ack...)
		out.ChecksumError = out.ChecksumError || res.ChecksumError
		if res.CommandResult != "" {
			out.CommandResult = res.CommandResult
		}
		if res.Unsupported != "" {
			out.Unsupported = res.Unsupported
		}
	}
	if lines == 0 {
		return out, errors.New("wialon: empty datagram")
	}
	// The listener neither stores nor answers an unsupported result: it is
	// one only when no line gave anything to keep.
	if len(out.Positions) > 0 || out.Reply != nil || out.Ack != nil || out.CommandResult != "" {
		out.Unsupported = ""
	}
	return out, nil
}
