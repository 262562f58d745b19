// Package wialon implements Gurtam's Wialon IPS protocol, versions 1.1 and
// 2.0 (the "Wialon IPS communication protocol" documents): text packets
// "#<type>#<message>\r\n" over TCP and UDP. A login "#L#" names the device
// and is answered "#AL#1"; short and extended data "#SD#"/"#D#" are
// acknowledged "#ASD#1"/"#AD#1" once stored, a black box "#B#" "#AB#<n>",
// a driver message "#M#" "#AM#1", a ping "#P#" "#AP#". Version 2.0 ends
// each packet with a CRC-16 of its message, which is checked.
package wialon

import (
	"errors"
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Name is the protocol name stored in positions.
const Name = "wialon"

// Protocol is the Wialon IPS codec. Per-connection state (the protocol
// version the login announced) lives in protocols.Conn.State.
type Protocol struct {
	// now stamps packets whose date and time are "NA"; tests pin it.
	now protocols.Clock
}

var (
	_ protocols.Stream     = (*Protocol)(nil)
	_ protocols.Datagram   = (*Protocol)(nil)
	_ protocols.Recognizer = (*Protocol)(nil)
)

// New returns the Wialon IPS codec.
func New() *Protocol { return &Protocol{} }

// Name implements protocols.Stream.
func (p *Protocol) Name() string { return Name }

// session is what a connection's login told: version 2.0 packets carry a
// CRC, which decides how a "#M#" message ends.
type session struct{ v2 bool }

func v2(c *protocols.Conn) bool {
	s, ok := c.State.(*session)
	return ok && s.v2
}

// packet is one parsed line: "[<version>;][<imei>]#<type>#<message>".
type packet struct {
	version, imei, typ, msg string
}

var errNotPacket = errors.New("wialon: not a #type# packet")

func parsePacket(line []byte) (packet, error) {
	s := strings.TrimRight(string(line), "\r\n")
	head, rest, ok := strings.Cut(s, "#")
	if !ok {
		return packet{}, errNotPacket
	}
	typ, msg, ok := strings.Cut(rest, "#")
	if !ok || typ == "" || len(typ) > 3 || !isUpper(typ) {
		return packet{}, errNotPacket
	}
	pk := packet{typ: typ, msg: msg}
	// The UDP form names the device in front: "<imei>#D#..." or
	// "2.0;<imei>#D#...".
	if v, id, ok := strings.Cut(head, ";"); ok {
		pk.version, head = v, id
	}
	if head != "" && !validID(head) {
		return packet{}, errNotPacket
	}
	pk.imei = head
	return pk, nil
}

func isUpper(s string) bool {
	for i := range len(s) {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// validID accepts a device id: printable ASCII without the separators,
// at most 64 characters (IMEIs, serial numbers, plate-like names).
func validID(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := range len(s) {
		if c := s[i]; c <= ' ' || c > '~' || c == ';' || c == '#' {
			return false
		}
	}
	return true
}

// Decode decodes one packet (a line, with or without its "\r\n").
func (p *Protocol) Decode(c *protocols.Conn, frame []byte) (protocols.Result, error) {
	pk, err := parsePacket(frame)
	if err != nil {
		return protocols.Result{}, err
	}
	res := protocols.Result{UniqueID: pk.imei}
	switch pk.typ {
	case "L":
		return p.login(c, pk)
	case "P":
		res.Reply = []byte("#AP#\r\n")
	case "SD", "D":
		body, crcErr := checked(pk.msg, recordFields(pk.typ)+1)
		pos, err := p.record(strings.Split(body, ";"))
		if err != nil {
			return res, err
		}
		res.Positions = []*model.Position{pos}
		res.ChecksumError = crcErr
		res.Ack = []byte("#A" + pk.typ + "#1\r\n")
	case "B":
		return p.blackBox(pk)
	case "M":
		text := pk.msg
		if v2(c) || pk.version != "" {
			i := strings.LastIndexByte(text, ';')
			if i < 0 {
				return res, errors.New("wialon: message without its CRC")
			}
			res.ChecksumError = !crcMatches(text[:i+1], text[i+1:])
			text = text[:i]
		}
		res.CommandResult = text
		if text == "" {
			res.CommandResult = "(empty message)"
		}
		res.Ack = []byte("#AM#1\r\n")
	default:
		// Images (#I#), video and the 2.1 packets carry no position
		// fleetd can use.
		res.Unsupported = "packet type #" + pk.typ + "# not decoded"
	}
	return res, nil
}

// login reads "#L#<imei>;<password>" (1.1) or "#L#2.0;<imei>;<password>;<crc>".
func (p *Protocol) login(c *protocols.Conn, pk packet) (protocols.Result, error) {
	f := strings.Split(pk.msg, ";")
	var res protocols.Result
	s := &session{}
	if strings.Contains(f[0], ".") {
		if len(f) < 2 {
			return res, errors.New("wialon: login without a device id")
		}
		s.v2 = true
		if len(f) >= 4 {
			res.ChecksumError = !crcMatches(strings.Join(f[:len(f)-1], ";")+";", f[len(f)-1])
		}
		f = f[1:]
	}
	if !validID(f[0]) {
		return res, errors.New("wialon: login without a device id")
	}
	c.State = s
	res.UniqueID = f[0]
	res.Reply = []byte("#AL#1\r\n")
	return res, nil
}

// blackBox reads "#B#<record>|<record>|...[|<crc>]": every record is a
// short or an extended data record; the answer counts those stored.
func (p *Protocol) blackBox(pk packet) (protocols.Result, error) {
	res := protocols.Result{UniqueID: pk.imei}
	records := strings.Split(pk.msg, "|")
	if n := len(records); n > 1 && !strings.Contains(records[n-1], ";") {
		res.ChecksumError = !crcMatches(pk.msg[:len(pk.msg)-len(records[n-1])], records[n-1])
		records = records[:n-1]
	}
	for _, r := range records {
		if r == "" {
			continue
		}
		pos, err := p.record(strings.Split(r, ";"))
		if err != nil {
			return res, err
		}
		pos.Attributes["archive"] = true
		res.Positions = append(res.Positions, pos)
	}
	if len(res.Positions) == 0 {
		return res, errors.New("wialon: black box without records")
	}
	res.Ack = []byte("#AB#" + strconv.Itoa(len(res.Positions)) + "\r\n")
	return res, nil
}

// recordFields is the number of fields of a data record without its CRC.
func recordFields(typ string) int {
	if typ == "SD" {
		return shortFields
	}
	return extendedFields
}

// checked splits off a 2.0 packet's CRC: a data message with withCRC
// fields (one more than the record has) ends with the CRC of everything
// before it, its last ';' included. The field count tells the versions
// apart, so a 1.1 device needs no login to be read right.
func checked(msg string, withCRC int) (body string, crcErr bool) {
	if strings.Count(msg, ";")+1 != withCRC {
		return msg, false
	}
	i := strings.LastIndexByte(msg, ';')
	return msg[:i], !crcMatches(msg[:i+1], msg[i+1:])
}
