package gt06

import (
	"strings"

	"github.com/fleetd/fleetd/app/model"
)

// Content sizes (length field minus 5) that select a model's layout of a
// standard message type, as devices in the field send them.
const (
	sizeVXT01        = 31 // 0x12/0x16 (length 0x24): VXT01
	sizeS5           = 38 // 0x12 (length 0x2B): S5
	sizeWetrust      = 36 // 0x12 (length 0x29): WETRUST
	sizeQH302R       = 34 // 0x12 (length 0x27): IMEI first (QH302R)
	sizeBenway       = 28 // 0x12 (length 0x21): BENWAY I/O mask
	sizeGT06ECard    = 0x71 - 5
	sizeSeeworld22   = 42 // 0x22 (length 0x2F): SEEWORLD
	sizeNT22         = 55 // 0x22 (length 0x3C): NT models
	sizeOBD6         = 14 // 0x13 (length 0x13): OBD6
	sizeStatusTemp   = 16 // 0x13 (length 0x15): status with temperature
	alarmContent     = 18 + 9 + 5
	sizeSeeworldA3   = 7  // 0xA3 (length 0x0C): SEEWORLD status
	sizeSeeworldA3L  = 19 // 0xA3 (length 0x18): SEEWORLD status with steps
	sizeSL4XGPS      = 37 // 0x31 (length 0x2A): SL4X
	sizeSL4XStatus   = 34 // 0x32 (length 0x27): SL4X
	sizeSL4XStatusAl = 36 // 0x32 (length 0x29): SL4X with altitude
	sizeLW4G         = 59 // 0xA2 (length 0x40): LW4G GPS + status
	sizeRFID         = 35 // 0x17 (length 0x28): GPS + cell + RFID
	sizeTRX16I16     = 40 // 0x16 (length 0x2D): TRX16I, RFID after the status
	sizeTRX16I36     = 48 // 0x36 (length 0x35): TRX16I location + RFID
)

// Device models (Conn.Model, case-insensitive) whose layouts frame length
// cannot tell apart.
var (
	// ntModels send 0x22 and 0x25 with a source byte, IMEI and time first
	// and a voltage/odometer/engine-hours status tail.
	ntModels = map[string]bool{"NT11": true, "NT20": true, "NT26": true, "NT40": true, "NT46": true, "VL100": true, "XT40": true}
	// vlModels give alarm codes 0x09, 0x28 and 0x30 other meanings.
	vlModels = map[string]bool{"VL103": true, "LL303": true, "VL512": true, "G18": true}
)

// gpsPacket decodes GPS packets with a serving cell (cidSize 0 means none;
// devices leave it out when they have no cell data) and the optional ACC /
// upload mode / re-upload / odometer tail.
func gpsPacket(cell cellLayout) decoder {
	return func(r *reader, p *model.Position, _ *pkt) (bool, error) {
		if err := readGPS(r, p, fullGPS); err != nil {
			return false, err
		}
		if cell.cidSize > 0 && r.left() >= cellSize(cell) {
			readCell(r, p, cell)
		}
		readACCTail(r, p)
		return true, nil
	}
}

// readACCTail reads the ACC / upload mode / re-upload bytes and the
// odometer that some models append to GPS packets, told by what is left.
func readACCTail(r *reader, p *model.Position) {
	if n := r.left(); n == 3 || n == 7 {
		p.Attributes["ignition"] = r.u8() > 0
		p.Attributes["event"] = r.u8() // upload mode
		p.Attributes["archive"] = r.u8() > 0
	}
	if r.left() == 4 {
		p.Attributes["odometer"] = r.uint(4)
	}
}

// cellSize is the size of a serving cell block without a length byte.
func cellSize(l cellLayout) int {
	n := 2 + 1 + 2 + l.cidSize
	if l.wideMNC {
		n++
	}
	if l.lte {
		n += 2
	}
	return n
}

// gpsLBSPacket is 0x12: fix, cell and the tail. Several models send their
// own tail after the fix and cell, told apart by the content size.
func gpsLBSPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	if k.model == "QH302R" || k.size == sizeQH302R {
		r.next(8) // IMEI
	}
	if err := readGPS(r, p, fullGPS); err != nil {
		return false, err
	}
	if r.left() >= 8 {
		readCell(r, p, cellLayout{cidSize: 3})
	}
	switch {
	case k.size == sizeVXT01:
		// Status, external power (0.01 V), GSM signal, alarm extension.
		readTerminalInfo(r, p, false)
		p.Attributes["power"] = float64(r.u16()) / 100
		p.Attributes["rssi"] = r.u8()
		r.u8()
	case k.size == sizeS5:
		// Status, power, signal, alarm, oil, temperature (bit 7 = minus),
		// odometer in units of 10 m.
		readTerminalInfo(r, p, false)
		p.Attributes["power"] = float64(r.u16()) / 100
		p.Attributes["rssi"] = r.u8()
		addAlarm(p, alarmName(r.u8(), k.model))
		p.Attributes["oil"] = r.u16()
		temp := r.u8()
		if temp&0x80 != 0 {
			temp = -(temp & 0x7F)
		}
		p.Attributes["temp1"] = temp
		p.Attributes["odometer"] = r.uint(4) * 10
	case k.size == sizeWetrust:
		// Odometer, card number (length + ASCII), alarm flag, card
		// status, driving time.
		p.Attributes["odometer"] = r.uint(4)
		p.Attributes["card"] = string(r.next(r.u8()))
		if r.u8() > 0 {
			addAlarm(p, "general")
		}
		p.Attributes["cardStatus"] = r.u8()
		p.Attributes["drivingTime"] = r.u16()
	case k.size == sizeBenway:
		// I/O mask: bit 15 ACC, bit 14 input 2; bit 12 set: bits 0-8
		// a temperature (bit 9 minus); else bits 0-9 the analog input,
		// in 0.1 V unless bit 13 is set.
		mask := r.u16()
		p.Attributes["ignition"] = mask&(1<<15) != 0
		p.Attributes["in2"] = mask&(1<<14) != 0
		if mask&(1<<12) != 0 {
			temp := mask & 0x1FF
			if mask&(1<<9) != 0 {
				temp = -temp
			}
			p.Attributes["temp1"] = temp
		} else if mask&(1<<13) != 0 {
			p.Attributes["adc1"] = float64(mask & 0x3FF)
		} else {
			p.Attributes["adc1"] = float64(mask&0x3FF) / 10
		}
	case k.size >= sizeGT06ECard:
		// Odometer, card text (length + ASCII), alarm, swiped flag.
		p.Attributes["odometer"] = r.uint(4)
		if card := strings.TrimSpace(string(r.next(r.u8()))); card != "" {
			p.Attributes["card"] = card
		}
		r.next(2)
	default:
		readACCTail(r, p)
	}
	return true, r.err
}

// gpsLBS2Packet is 0x22: like 0x12, with the SEEWORLD layout (length 0x2F)
// and the NT models' layout (length 0x3C, or by Conn.Model).
func gpsLBS2Packet(r *reader, p *model.Position, k *pkt) (bool, error) {
	if ntModels[k.model] || k.size == sizeNT22 {
		return ntPacket(r, p, k)
	}
	if err := readGPS(r, p, fullGPS); err != nil {
		return false, err
	}
	if k.size == sizeSeeworld22 {
		// Cell with a 4-byte cell id, ACC, reporting mode, supplementary
		// transmission, odometer, travel time, temperature (0.01 °C, bit
		// 15 = minus), humidity (0.01 %).
		readCell(r, p, cellLayout{cidSize: 4})
		p.Attributes["ignition"] = r.u8() > 0
		r.next(2)
		p.Attributes["odometer"] = r.uint(4)
		r.next(4)
		temp := r.u16()
		if temp&0x8000 != 0 {
			temp = -(temp & 0x7FFF)
		}
		p.Attributes["temp1"] = float64(temp) / 100
		p.Attributes["humidity"] = float64(r.u16()) / 100
		return true, r.err
	}
	if r.left() >= 8 {
		readCell(r, p, cellLayout{cidSize: 3})
	}
	readACCTail(r, p)
	return true, r.err
}

// gpsLBSDriverPacket is 0x25, sent by the NT models (XT40): 0x22's layout
// followed by the driver id (length, id type, id).
func gpsLBSDriverPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	return ntPacket(r, p, k)
}

// ntPacket is the NT models' 0x22/0x25: location source, IMEI, device
// time, fix, cell led by its length (0x25: 4-byte cell id), status,
// external power (0.01 V), battery (0.1 V), GSM signal, alarm, language,
// odometer (3 bytes) and engine hours (3 bytes, minutes); 0x25 then has
// the driver id: its length, an id type byte and the id.
func ntPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	r.u8()    // location source
	r.next(8) // IMEI
	t, err := readTime(r)
	if err != nil {
		return false, err
	}
	if err := readGPS(r, p, fullGPS); err != nil {
		return false, err
	}
	p.DeviceTime = t
	cell := cellLayout{cidSize: 3}
	if k.typ == msgGPSLBSDriver {
		cell.cidSize = 4
	}
	if n := r.u8(); n > 0 {
		// A length above 9 is followed by that many more bytes (0x25
		// sends 10 and one byte after the cell).
		readCell(r, p, cell)
		r.next(max(0, n-9))
	}
	readTerminalInfo(r, p, false)
	p.Attributes["power"] = float64(r.u16()) / 100
	p.Attributes["battery"] = float64(r.u8()) / 10
	p.Attributes["rssi"] = r.u8()
	addAlarm(p, alarmName(r.u8(), k.model))
	r.u8() // language
	p.Attributes["odometer"] = r.uint(3)
	p.Attributes["hours"] = r.uint(3) * 60_000
	if k.typ == msgGPSLBSDriver {
		if n := r.u8(); n > 1 {
			r.u8() // id type
			p.Attributes["driverUniqueId"] = hexString(r.next(n - 1))
		}
	}
	return true, r.err
}

// gpsLBS5Packet is 0x31: fix, cell and the ACC tail; the SL4X (length
// 0x2A) sends a 2-byte MNC, a 4-byte cell id, the ACC tail, the odometer
// and the altitude (m).
func gpsLBS5Packet(r *reader, p *model.Position, k *pkt) (bool, error) {
	if err := readGPS(r, p, fullGPS); err != nil {
		return false, err
	}
	if k.size != sizeSL4XGPS {
		if r.left() >= 8 {
			readCell(r, p, cellLayout{cidSize: 3})
		}
		readACCTail(r, p)
		return true, r.err
	}
	readCell(r, p, cellLayout{wideMNC: true, cidSize: 4})
	p.Attributes["ignition"] = r.u8() > 0
	p.Attributes["event"] = r.u8()
	p.Attributes["archive"] = r.u8() > 0
	p.Attributes["odometer"] = r.uint(4)
	p.Altitude = float64(int16(r.u16()))
	return true, r.err
}

// alarmPacket is 0x16/0x26/0x27: fix, cell led by its length, status.
// Models: a 4-byte cell id when the content is one byte longer (SEEWORLD);
// no length byte before the cell and overspeed in the status bits (VXT01,
// length 0x24); a zero length byte followed by a block of zeros (the
// status then ends the content). 0x27 ends with language and fence number.
func alarmPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	if err := readGPS(r, p, fullGPS); err != nil {
		return false, err
	}
	vxt01 := k.typ == msgGPSLBSStatus && k.size == sizeVXT01
	switch {
	case vxt01:
		readCell(r, p, cellLayout{cidSize: 3})
	case r.left() > 0 && r.b[0] == 0:
		// No cell; some models pad the cell block with zeros.
		tail := 5
		if k.typ == msgGPSLBSStat3 {
			tail = 6
		}
		r.u8()
		if pad := r.left() - tail; pad > 0 && allZero(r.b[min(9, pad):pad]) {
			r.next(pad) // the block of zeros (a cell's worth of bytes may differ)
		}
	default:
		cell := cellLayout{lengthByte: true, cidSize: 3}
		if k.size == alarmContent+1 {
			cell.cidSize = 4
		}
		readCell(r, p, cell)
	}
	if vxt01 {
		// The alarm byte carries nothing on the VXT01.
		readTerminalInfo(r, p, true)
		readVoltageLevel(r, p)
		p.Attributes["rssi"] = r.u8()
		r.u8()
		return true, r.err
	}
	if k.typ == msgGPSLBSStatus && k.size == sizeTRX16I16 {
		// TRX16I: the alarm byte is an event code, then language and the
		// RFID card (8 bytes, hex; zeros without a card).
		readTerminalInfo(r, p, false)
		readVoltageLevel(r, p)
		p.Attributes["rssi"] = r.u8()
		p.Attributes["event"] = r.u8()
		r.u8() // language
		if card := r.next(8); card != nil && !allZero(card) {
			p.Attributes["driverUniqueId"] = hexString(card)
		}
		return true, r.err
	}
	readStatusModel(r, p, k.model)
	if k.typ == msgGPSLBSStat3 && r.left() >= 2 {
		r.u8() // language
		p.Attributes["geofence"] = r.u8()
	}
	return true, r.err
}

// statusPacket is the heartbeat (0x13): terminal status without a
// location. Layouts by content size: 14 bytes OBD6 (satellites, power,
// temperature), 16 bytes a status with a temperature; by model: LW* send
// the external power after the signal, SEEWORLD sends the power in place
// of the alarm byte, R11 sends the power in place of the voltage level.
func statusPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	p.Outdated = true
	switch {
	case k.size == sizeOBD6:
		readTerminalInfo(r, p, false)
		signal := r.u16()
		p.Attributes["sat"] = signal>>10&0x1F + signal>>5&0x1F
		p.Attributes["rssi"] = signal & 0x1F
		addAlarm(p, alarmName(r.u8(), k.model))
		r.u8() // language
		p.Attributes["batteryLevel"] = r.u8()
		mode := r.u8()
		p.Attributes["power"] = float64(r.u16()) / 100
		r.u8()  // reserved
		r.u16() // working time
		if mode == 4 {
			p.Attributes["temp1"] = float64(int16(r.u16())) / 10
		}
	case k.size == sizeStatusTemp:
		r.u8()  // information content
		r.u16() // satellites
		r.u8()  // alarm
		r.u8()  // language
		p.Attributes["batteryLevel"] = r.u8()
		r.u8()       // working mode
		r.u16()      // working voltage
		r.u8()       // reserved
		r.next(4)    // working times, working time
		v := r.u16() // 0.1 °C, bit 15 set for above zero
		temp := float64(v&0x7FFF) / 10
		if v&0x8000 == 0 {
			temp = -temp
		}
		p.Attributes["temp1"] = temp
	case strings.HasPrefix(k.model, "LW"):
		readTerminalInfo(r, p, false)
		readVoltageLevel(r, p)
		p.Attributes["rssi"] = r.u8()
		p.Attributes["power"] = float64(r.u16()&0x0FFF) / 10
	case k.model == "SEEWORLD":
		readTerminalInfo(r, p, false)
		readVoltageLevel(r, p)
		p.Attributes["rssi"] = r.u8()
		p.Attributes["power"] = float64(r.u8())
	case k.model == "R11":
		readTerminalInfo(r, p, false)
		p.Attributes["power"] = float64(r.u16()) / 100
		p.Attributes["rssi"] = r.u8()
		addAlarm(p, alarmName(r.u8(), k.model))
	default:
		readStatusModel(r, p, k.model)
	}
	return true, r.err
}

// jc100AlarmPacket is 0x95. JC100: a 7-byte content is time + event (no
// location); longer contents carry time, latitude, longitude and the
// course/status word, then the event, its 2-byte data and the names of the
// video files recorded for it. JC400 (content starting FF FF): marker,
// version, time, satellites, latitude, longitude, course/status, 2-byte
// speed, power (0.1 V), then event, event data and file names.
func jc100AlarmPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	jc400 := k.size > 2 && r.b[0] == 0xFF && r.b[1] == 0xFF
	withGPS := k.size > 7
	switch {
	case jc400:
		r.next(3) // marker, version
		if err := readGPS(r, p, gpsLayout{satellites: true, speed: true, wideSpeed: true}); err != nil {
			return false, err
		}
		p.Attributes["power"] = float64(r.u16()) / 10
	case withGPS:
		if err := readGPS(r, p, gpsLayout{}); err != nil {
			return false, err
		}
	default:
		t, err := readTime(r)
		if err != nil {
			return false, err
		}
		p.DeviceTime, p.Outdated = t, true
	}
	event := r.u8()
	p.Attributes["event"] = event
	if r.left() >= 2 {
		p.Attributes["eventData"] = r.u16()
	}
	if r.left() > 0 {
		p.Attributes["eventFiles"] = string(r.next(r.left()))
	}
	switch {
	case event == 0x01 && withGPS:
		addAlarm(p, "sos")
	case event == 0x01:
		addAlarm(p, "general")
	default:
		addAlarm(p, jc100Alarms[event])
	}
	return true, r.err
}

// stringText reads the 0x7878 command answer (0x15): length, server flag,
// ASCII text, language. Some devices put 0 in the length byte and pad the
// text with NULs.
func stringText(r *reader) string {
	n := r.u8()
	r.next(4) // server flag
	var text []byte
	if n >= 4 && n-4 <= r.left() {
		text = r.next(n - 4)
	} else {
		text = r.next(max(0, r.left()-2)) // up to the language
	}
	if i := strings.IndexByte(string(text), 0); i >= 0 {
		text = text[:i]
	}
	return strings.TrimSpace(string(text))
}

// wifi4GPacket is 0xA2: seven 4G cells and Wi-Fi access points, or the
// LW4G model's GPS + status form (length 0x40): fix, 4G serving cell,
// network indicator, status, external power (0.01 V), voltage level, GSM
// signal, alarm, language, odometer, working hours (s), terminal id (8),
// inputs (2). Other 0xA2 frames are cell lists.
func wifi4GPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	if k.size != sizeLW4G {
		return lbsMultiple(cellList{lte: true, wifi: true})(r, p, k)
	}
	if err := readGPS(r, p, fullGPS); err != nil {
		return false, err
	}
	readCell(r, p, lteCell)
	r.u8() // network indicator
	readTerminalInfo(r, p, false)
	p.Attributes["power"] = float64(r.u16()) / 100
	readVoltageLevel(r, p)
	p.Attributes["rssi"] = r.u8()
	addAlarm(p, alarmName(r.u8(), k.model))
	r.u8() // language
	p.Attributes["odometer"] = r.uint(4)
	p.Attributes["hours"] = r.uint(4) * 1000
	r.next(8) // terminal id
	p.Attributes["input"] = r.u16()
	return true, r.err
}

// rfidPacket is the RFID model's 0x17 (length 0x28, with a CRC, unlike
// the Wi-Fi 0x17): fix, cell, RFID card (8 bytes, hex), validity.
func rfidPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	if k.size != sizeRFID {
		k.unsupported = "message type 0x17 of this length not decoded"
		return false, nil
	}
	if err := readGPS(r, p, fullGPS); err != nil {
		return false, err
	}
	readCell(r, p, cellLayout{cidSize: 3})
	p.Attributes["driverUniqueId"] = hexString(r.next(8))
	r.u8() // validity
	return true, r.err
}

// status2Packet is 0x36 in a 0x7878 frame. TRX16I (length 0x35): fix, cell
// with a 4-byte cell id, ACC, upload mode, re-upload, odometer, external
// power (0.01 V), battery (0.1 V), working time (3 bytes, minutes), RFID
// card (8 bytes, hex; zeros without a card). Jimi IoT 4G devices: status,
// voltage level, GSM signal, alarm, language, then modules of type (2
// bytes), length (1) and value: 0x18 battery (0.01 V), 0x32 startup
// status, 0x6A battery percentage.
func status2Packet(r *reader, p *model.Position, k *pkt) (bool, error) {
	if k.size == sizeTRX16I36 {
		if err := readGPS(r, p, fullGPS); err != nil {
			return false, err
		}
		readCell(r, p, cellLayout{cidSize: 4})
		p.Attributes["ignition"] = r.u8() > 0
		p.Attributes["uploadMode"] = r.u8()
		p.Attributes["archive"] = r.u8() > 0
		p.Attributes["odometer"] = r.uint(4)
		p.Attributes["power"] = float64(r.u16()) / 100
		p.Attributes["battery"] = float64(r.u8()) / 10
		p.Attributes["hours"] = r.uint(3) * 60_000
		if card := r.next(8); card != nil && !allZero(card) {
			p.Attributes["driverUniqueId"] = hexString(card)
		}
		return true, r.err
	}
	p.Outdated = true
	readStatusModel(r, p, k.model)
	r.u8() // language
	for r.left() >= 3 && r.err == nil {
		typ, n := r.u16(), r.u8()
		v := &reader{b: r.next(n)}
		switch typ {
		case 0x18:
			p.Attributes["battery"] = float64(v.u16()) / 100
		case 0x32:
			p.Attributes["startupStatus"] = v.u8()
		case 0x6A:
			p.Attributes["batteryLevel"] = v.u8()
		}
	}
	return true, r.err
}
