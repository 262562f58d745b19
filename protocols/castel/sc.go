package castel

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Message types of the SC (OBD) family, versions 3 and 4.
const (
	scLogin          = 0x1001
	scLoginReply     = 0x9001
	scLogout         = 0x1002
	scHeartbeat      = 0x1003
	scHeartbeatReply = 0x9003
	scGPS            = 0x4001
	scPIDData        = 0x4002
	scGSensor        = 0x4003
	scSupportedPIDs  = 0x4004
	scOBDData        = 0x4005
	scDTCsPassenger  = 0x4006
	scAlarm          = 0x4007
	scAlarmReply     = 0xC007
	scCell           = 0x4008
	scGPSSleep       = 0x4009
	scDTCsCommercial = 0x400B
	scFuel           = 0x400E
	scComprehensive  = 0x401F
	scAGPSRequest    = 0x5101
	scQueryAnswer    = 0xA002
	scLocation       = 0xB001
)

// stat is the statistics block most SC messages start with: ACC-on time,
// UTC time, odometer (m), trip odometer (m), total and current fuel
// consumption, the state flags and 8 reserved bytes.
type stat struct {
	time                 time.Time
	odometer, trip, fuel int64
	state                uint32
}

func readStat(r *reader) stat {
	r.u32() // seconds since ACC on
	var s stat
	s.time = time.Unix(int64(r.u32()), 0).UTC()
	s.odometer, s.trip, s.fuel = int64(r.u32()), int64(r.u32()), int64(r.u32())
	r.u16() // current fuel consumption
	s.state = r.u32()
	r.take(8)
	return s
}

// setOn sets the block's values on p: odometers, fuel consumption and the
// state as status.
func (s stat) setOn(p *model.Position) {
	p.Attributes["odometer"] = s.odometer
	p.Attributes["tripOdometer"] = s.trip
	p.Attributes["fuelConsumption"] = s.fuel
	p.Attributes["status"] = int64(s.state)
}

// outdated is the position of a message without a fix, at the block's
// time: its state bits also give hard acceleration (4), hard braking (5),
// idling (6) and ignition (18).
func (s stat) outdated() *model.Position {
	p := &model.Position{Protocol: Name, Attributes: make(model.Attributes, 16), Outdated: true, DeviceTime: s.time}
	s.setOn(p)
	for bit, alarm := range map[uint]string{4: "hardAcceleration", 5: "hardBraking", 6: "idle"} {
		if s.state&(1<<bit) != 0 {
			addAlarm(p, alarm)
		}
	}
	p.Attributes["ignition"] = s.state&(1<<18) != 0
	return p
}

// decodeSC decodes one SC message.
func (p *Protocol) decodeSC(r *reader, h header, res *protocols.Result) error {
	switch h.typ {
	case scHeartbeat:
		res.Reply = reply(h, scHeartbeatReply, nil)
		return nil
	case scLogin, scLogout, scGPS, scAlarm, scLocation, scFuel, scComprehensive:
		return p.decodeFixes(r, h, res)
	case scGPSSleep:
		r.u32() // device time
		res.Positions = []*model.Position{readFix(r)}
	case scAGPSRequest:
		res.Positions = []*model.Position{readFix(r)}
	case scPIDData, scGSensor, scSupportedPIDs, scOBDData, scDTCsPassenger, scDTCsCommercial, scCell:
		pos, err := decodeStatus(r, h.typ)
		if err != nil {
			return err
		}
		res.Positions = []*model.Position{pos}
	case scQueryAnswer:
		res.CommandResult = readQueryAnswer(r)
	default:
		res.Unsupported = fmt.Sprintf("SC message type 0x%04X not decoded", h.typ)
		return nil
	}
	if r.failed {
		return errTruncated
	}
	return nil
}

// decodeFixes decodes the messages made of a type-specific head, the stat
// block, a count of positions and a type-specific tail: login (answered
// 0x9001 with the server's time), logout, GPS, alarm (answered 0xC007
// with the alarm index), current location, fuel and comprehensive data.
func (p *Protocol) decodeFixes(r *reader, h header, res *protocols.Result) error {
	var ans []byte
	switch h.typ {
	case scLogin:
		body := []byte{0xFF, 0xFF, 0xFF, 0xFF, 0, 0}
		ans = reply(h, scLoginReply, binary.LittleEndian.AppendUint32(body, uint32(p.now.Now().Unix())))
	case scGPS:
		r.u8() // 1 for positions from memory
	case scComprehensive:
		r.u8()
		r.u32() // message index
	case scAlarm:
		ans = reply(h, scAlarmReply, r.take(4))
	case scLocation:
		r.u16() // query index
	}
	s := readStat(r)
	count := r.u8()
	for range count {
		pos := readFix(r)
		s.setOn(pos)
		res.Positions = append(res.Positions, pos)
	}
	if r.failed {
		return errTruncated
	}
	switch h.typ {
	case scAlarm:
		alarms, ignition := readAlarms(r)
		if len(res.Positions) == 0 {
			res.Positions = []*model.Position{s.outdated()}
		}
		for _, pos := range res.Positions {
			for _, a := range alarms {
				addAlarm(pos, a)
			}
			if ignition != nil {
				pos.Attributes["ignition"] = *ignition
			}
		}
	case scFuel:
		for _, pos := range res.Positions {
			pos.Attributes["adc1"] = r.u16()
		}
	case scComprehensive:
		if len(res.Positions) == 0 {
			res.Positions = []*model.Position{s.outdated()}
		}
		readTLVs(r, res.Positions[len(res.Positions)-1])
	}
	if r.failed {
		return errTruncated
	}
	if ans != nil {
		answer(res, ans)
	}
	return nil
}

// alarmNames are the alarm types of alarm messages (V4.21 "alarm type")
// with Traccar's names; 0x16 and 0x17 are ignition on and off.
var alarmNames = map[int]string{
	0x01: "overspeed", 0x02: "lowPower", 0x03: "temperature", 0x04: "hardAcceleration",
	0x05: "hardBraking", 0x06: "idle", 0x07: "tow", 0x08: "highRpm", 0x09: "powerOn",
	0x0B: "laneChange", 0x0C: "hardCornering", 0x0D: "fatigueDriving", 0x0E: "powerOff",
	0x11: "accident", 0x12: "tampering", 0x1C: "vibration",
}

// readAlarms reads the alarm list: a count, then per alarm a new-alarm
// flag, the type, a description and a threshold (2 each). Only alarms
// flagged new count.
func readAlarms(r *reader) (alarms []string, ignition *bool) {
	for range r.u8() {
		flag, typ := r.u8(), r.u8()
		r.take(4)
		if flag == 0 || r.failed {
			continue
		}
		switch typ {
		case 0x16, 0x17:
			on := typ == 0x16
			ignition = &on
		default:
			if name, ok := alarmNames[typ]; ok {
				alarms = append(alarms, name)
			}
		}
	}
	return alarms, ignition
}

// readTLVs reads the tag-length-value tail of comprehensive data onto p.
func readTLVs(r *reader, p *model.Position) {
	for len(r.buf) > 4 {
		tag := r.u16()
		v := &reader{buf: r.take(r.u16())}
		if r.failed {
			return
		}
		switch tag {
		case 0x0002: // PID values, each with its own tag and length
			for range v.u8() {
				pid, n := v.u16(), v.u16()
				if b := v.take(n); b != nil {
					p.Attributes["pid"+strconv.Itoa(pid)] = hex.EncodeToString(b)
				}
			}
		case 0x0006, 0x000B: // fault codes, 2 or 4 bytes each
			v.u8() // fault flag
			for i := range v.u8() {
				if tag == 0x0006 {
					p.Attributes["fault"+strconv.Itoa(i+1)] = v.u16()
				} else {
					p.Attributes["fault"+strconv.Itoa(i+1)] = int64(v.u32())
				}
			}
		case 0x0007:
			v.u32() // alarm index
			alarms, ignition := readAlarms(v)
			for _, a := range alarms {
				addAlarm(p, a)
			}
			if ignition != nil {
				p.Attributes["ignition"] = *ignition
			}
		case 0x0010:
			p.Attributes["deviceTemp"] = float64(int16(v.u16())) / 10
		case 0x0011, 0x0012, 0x0013, 0x0014:
			p.Attributes["temp"+strconv.Itoa(tag-0x0010)] = float64(int16(v.u16())) / 10
		case 0x0020:
			p.Attributes["power"] = float64(v.u16()) / 100
		case 0x0021:
			p.Attributes["battery"] = float64(v.u16()) / 100
		}
	}
}

// decodeStatus decodes the messages without a fix: the stat block, then
// PID values, G-sensor samples, the supported PID list, OBD values, trouble
// codes or the serving cell.
func decodeStatus(r *reader, typ uint16) (*model.Position, error) {
	s := readStat(r)
	p := s.outdated()
	switch typ {
	case scPIDData:
		r.u16() // sample rate
		readOBD(r, p, true)
	case scGSensor:
		r.u16() // sample rate
		var b strings.Builder
		b.WriteByte('[')
		for i := range r.u8() {
			if i > 0 {
				b.WriteByte(',')
			}
			x, y, z := int16(r.u16()), int16(r.u16()), int16(r.u16())
			fmt.Fprintf(&b, "[%s,%s,%s]", gValue(x), gValue(y), gValue(z))
		}
		b.WriteByte(']')
		p.Attributes["gSensor"] = b.String()
	case scSupportedPIDs:
		// The list of PIDs the vehicle answers: not kept, the block is.
	case scOBDData:
		r.u8() // flag
		readOBD(r, p, false)
	case scDTCsPassenger, scDTCsCommercial:
		r.u8() // flag
		var codes []string
		for range r.u8() {
			codes = append(codes, dtc(r.u16()))
			if typ == scDTCsCommercial {
				r.take(2) // attribute, occurrences
			}
		}
		if len(codes) > 0 {
			p.Attributes["dtcs"] = strings.Join(codes, " ")
		}
	case scCell:
		lac, cid := r.u16(), r.u16()
		p.Network = cellNetwork(lac, cid)
	}
	if r.failed {
		return nil, errTruncated
	}
	return p, nil
}

// gValue is a G-sensor sample in g (1/64 g units), printed as Traccar does
// (Java's double text: "0.0", "-1.5").
func gValue(v int16) string {
	s := strconv.FormatFloat(float64(v)*0.015625, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// dtc is an OBD-II trouble code: the top two bits pick P, C, B or U.
func dtc(v int) string {
	return fmt.Sprintf("%c%04X", "PCBU"[v>>14&3], v&0x3FFF)
}

// readQueryAnswer reads the answer to a parameter query: index (2),
// answer count and number (1 each), failed tags (count, 2 each), then
// successful ones (count; tag 2, length 2, ASCII value); the values are
// joined by ", ".
func readQueryAnswer(r *reader) string {
	r.take(4)
	r.take(2 * r.u8())
	var values []string
	for range r.u8() {
		r.u16() // tag
		values = append(values, string(r.take(r.u16())))
	}
	return strings.Join(values, ", ")
}

// addAlarm appends an alarm; several are comma-joined, as Traccar does.
func addAlarm(p *model.Position, alarm string) {
	if old, ok := p.Attributes["alarm"].(string); ok && old != "" {
		alarm = old + "," + alarm
	}
	p.Attributes["alarm"] = alarm
}
