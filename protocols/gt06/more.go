package gt06

import (
	"encoding/hex"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf16"

	"github.com/fleetd/fleetd/app/model"
)

// Message types whose layout depends on the header: shortDecoders for
// 0x7878 frames, longDecoders for 0x7979 frames.
var (
	shortDecoders = map[int]decoder{
		msgGPSLBSStat4: sl4xStatusPacket,
		msgStatus2:     status2Packet,
		msgWifiList:    wifiListPacket,
	}
	longDecoders = map[int]decoder{
		msgGPSLBSStat4:  az735Packet,
		msgAZ735Alarm:   az735Packet,
		msgModular:      modularPacket,
		msgDeviceStatus: statusItemsPacket,
		msgPeripheral:   statusItemsPacket,
		msgSerial:       serialPacket,
		msgOBD:          obdPacket,
	}
)

// commandText reads the 0x7979 command answer (0x21): server flag,
// encoding (1 ASCII, else UTF-16BE) and the text.
func commandText(r *reader) (string, error) {
	r.next(4) // server flag
	encoding := r.u8()
	text := r.next(r.left())
	if r.err != nil {
		return "", r.err
	}
	if encoding == 1 {
		return strings.TrimSpace(string(text)), nil
	}
	units := make([]uint16, len(text)/2)
	for i := range units {
		units[i] = uint16(text[2*i])<<8 | uint16(text[2*i+1])
	}
	return strings.TrimSpace(string(utf16.Decode(units))), nil
}

func hexString(b []byte) string { return hex.EncodeToString(b) }

// infoPacket is the information transmission (0x94), which the device
// expects no answer to. In a 0x7878 frame it is the external voltage
// (0.01 V, signed). In a 0x7979 frame a sub-type byte leads: 0x00
// external voltage (adc1), 0x04 status synchronisation (ASCII
// "ALM1=..;STA1=..;DYD=..;"), 0x05 door (an optional time, then bit 0
// door, bit 2 I/O port), 0x0A IMEI/IMSI/ICCID, 0x0B network (1 byte: 4G
// or 2G) or external voltage (2 bytes), 0x0D fuel sensor ("!AIOIL,..."
// after an optional time), 0x1B RFID (ASCII, or a binary card id), 0x1E
// temperature and humidity (4-byte signed, 0.1 units).
func infoPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	p.Outdated = true
	k.silent = true
	if !k.long {
		p.Attributes["power"] = float64(int16(r.u16())) / 100
		return true, r.err
	}
	sub := r.u8()
	switch sub {
	case 0x00:
		p.Attributes["adc1"] = float64(r.u16()) / 100
	case 0x04:
		for _, pair := range strings.Split(string(r.next(r.left())), ";") {
			key, value, ok := strings.Cut(pair, "=")
			n, err := strconv.ParseUint(value, 16, 8)
			if !ok || err != nil {
				continue
			}
			switch key {
			case "ALM1", "ALM2", "ALM3", "ALM4":
				p.Attributes["alarm"+key[3:]+"Status"] = int(n)
			case "STA1":
				p.Attributes["otherStatus"] = int(n)
			case "DYD":
				p.Attributes["engineStatus"] = int(n)
			}
		}
	case 0x05:
		if r.left() >= 7 {
			t, err := readTime(r)
			if err != nil {
				return false, err
			}
			p.DeviceTime = t
		}
		flags := r.u8()
		p.Attributes["door"] = flags&1 != 0
		p.Attributes["io1"] = flags&4 != 0
	case 0x0A:
		r.next(16) // IMEI, IMSI
		p.Attributes["iccid"] = strings.TrimRight(hex.EncodeToString(r.next(10)), "f")
	case 0x0B:
		switch r.left() {
		case 1:
			if r.u8() > 0 {
				p.Attributes["networkTechnology"] = "4G"
			} else {
				p.Attributes["networkTechnology"] = "2G"
			}
		case 2:
			p.Attributes["power"] = float64(r.u16()) / 100
		default:
			k.unsupported = "message type 0x94 sub-type 0x0b of this length not decoded"
			return false, nil
		}
	case 0x0D:
		if r.left() > 0 && r.b[0] != '!' {
			r.next(6) // time
		}
		fields := strings.Split(string(r.next(r.left())), ",")
		if len(fields) < 10 || fields[0] != "!AIOIL" {
			k.unsupported = "message type 0x94 sub-type 0x0d without an !AIOIL sentence"
			return false, nil
		}
		temp, err1 := strconv.ParseFloat(fields[3], 64)
		fuel, err2 := strconv.ParseFloat(fields[6], 64)
		if err1 != nil || err2 != nil {
			k.unsupported = "message type 0x94 sub-type 0x0d with unreadable values"
			return false, nil
		}
		p.Attributes["temp1"], p.Attributes["fuel"] = temp, fuel
	case 0x1B:
		if r.left() > 0 && unicode.IsLetter(rune(r.b[0])) {
			p.Attributes["serial"] = strings.TrimSpace(string(r.next(r.left())))
		} else {
			r.next(2) // header, type
			p.Attributes["driverUniqueId"] = hexString(r.next(4))
		}
	case 0x1E:
		p.Attributes["temp1"] = float64(int32(r.uint(4))) / 10
		p.Attributes["humidity"] = float64(int32(r.uint(4))) / 10
	default:
		k.unsupported = "message type 0x94 sub-type 0x" + strconv.FormatUint(uint64(sub), 16) + " not decoded"
		return false, nil
	}
	return true, r.err
}

// lbsMultiple3Packet is 0x24: seven cells like 0x28; the SR411 mini
// (length 0x2E) sends fix, cell, ACC, external power and battery (0.01 V);
// the Wanway S20 (length 0x31) sends time, timing advance, MCC, MNC and a
// counted list of cells.
func lbsMultiple3Packet(r *reader, p *model.Position, k *pkt) (bool, error) {
	switch k.size {
	case 0x2E - 5:
		if err := readGPS(r, p, fullGPS); err != nil {
			return false, err
		}
		readCell(r, p, cellLayout{cidSize: 3})
		p.Attributes["ignition"] = r.u8() > 0
		p.Attributes["power"] = float64(r.u16()) / 100
		p.Attributes["battery"] = float64(r.u16()) / 100
		return true, r.err
	case 0x31 - 5:
		t, err := readTime(r)
		if err != nil {
			return false, err
		}
		p.DeviceTime, p.Outdated = t, true
		r.u8() // timing advance
		mcc := r.u16()
		mnc := r.u8()
		if mcc&0x8000 != 0 {
			mnc = mnc<<8 | r.u8()
		}
		var towers []map[string]any
		for range r.u8() {
			lac, cid, rssi := r.u16(), r.uint(3), r.u8()
			if lac > 0 && r.err == nil {
				tower := cellTower(mcc&0x7FFF, mnc, lac, cid)
				tower["signalStrength"] = -rssi
				towers = append(towers, tower)
			}
		}
		if n := cellNetwork(false, towers, nil); n != nil {
			p.Network = n
		}
		return true, r.err
	}
	return lbsMultiple(cellList{})(r, p, k)
}

// addressReply is the answer to an address request (0x2A, 0xA7): a 0x97
// frame with no address, as Traccar sends: text length, server flag 0,
// "NA&&NA&&0##", serial number 0.
func addressReply() []byte {
	const text = "NA&&NA&&0##"
	content := append([]byte{byte(len(text)), 0, 0, 0, 0}, text...)
	return response(true, msgAddressReply, content, []byte{0, 0})
}

// addressPacket is the GPS address request (0x2A): fix, phone number (21
// bytes ASCII), language. The fix is stored; the answer, once it is, is
// addressReply.
func addressPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	if err := readGPS(r, p, fullGPS); err != nil {
		return false, err
	}
	readPhone(r, p)
	k.ack = addressReply()
	return true, r.err
}

// lbsAddressPacket is the 4G address request without a fix (0xA7): 4G
// serving cell, phone number (21 bytes ASCII), language. Stored as a
// no-fix position with the cell; answered like 0x2A.
func lbsAddressPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	p.Outdated = true
	readCell(r, p, lteCell)
	readPhone(r, p)
	k.ack = addressReply()
	return true, r.err
}

// readPhone reads the 21-byte phone number field of address requests.
func readPhone(r *reader, p *model.Position) {
	phone := strings.TrimRight(string(r.next(21)), "\x00")
	if phone != "" && r.err == nil {
		p.Attributes["phone"] = phone
	}
}

// x1Packet is 0x34 from the X1: data and alarm word, fix, terminal info
// (2 bytes), odometer, cell (4-byte cell id), driver id, battery and
// external power (0.01 V), port information (bits 20-23: the number of
// analog inputs), input and output bytes, analog inputs (0.01 V). The
// SL4X's cell list of the same number (length 0x37) is not decoded.
func x1Packet(r *reader, p *model.Position, k *pkt) (bool, error) {
	if k.size == 0x37-5 {
		k.unsupported = "message type 0x34 cell list (SL4X) not decoded"
		return false, nil
	}
	r.next(4) // data and alarm
	if err := readGPS(r, p, fullGPS); err != nil {
		return false, err
	}
	r.u16() // terminal info
	p.Attributes["odometer"] = r.uint(4)
	readCell(r, p, cellLayout{cidSize: 4})
	if id := r.uint(4); id > 0 {
		p.Attributes["driverUniqueId"] = strconv.FormatInt(id, 10)
	}
	p.Attributes["battery"] = float64(r.u16()) / 100
	p.Attributes["power"] = float64(r.u16()) / 100
	ports := r.uint(4)
	p.Attributes["input"] = r.u8()
	p.Attributes["output"] = r.u8()
	for i := range int(ports >> 20 & 0xF) {
		p.Attributes["adc"+strconv.Itoa(i+1)] = float64(r.u16()) / 100
	}
	return true, r.err
}

// fence1Packet is 0xA3. GK310 single-fence alarm: fix, one byte, 4G
// serving cell (MCC, MNC, 4-byte LAC, 8-byte cell id), terminal status,
// voltage level, GSM signal, alarm, language. SEEWORLD sends a status
// packet with the same number (content 7 or 19 bytes): terminal status,
// extension status (2), voltage level, GSM signal, external power (V),
// language; the long form then has sound and light switches, steps,
// battery percentage, charging and motion flags.
func fence1Packet(r *reader, p *model.Position, k *pkt) (bool, error) {
	if k.size == sizeSeeworldA3 || k.size == sizeSeeworldA3L {
		p.Outdated = true
		readTerminalInfo(r, p, false)
		r.u16() // extension status
		readVoltageLevel(r, p)
		p.Attributes["rssi"] = r.u8()
		p.Attributes["power"] = float64(r.u8())
		r.u8() // language
		if k.size == sizeSeeworldA3L {
			r.next(2) // sound and light switches
			p.Attributes["steps"] = r.uint(4)
			p.Attributes["batteryLevel"] = r.u8()
			p.Attributes["charge"] = r.u8() == 1
			p.Attributes["motion"] = r.u8() == 1
		}
		return true, r.err
	}
	if err := readGPS(r, p, fullGPS); err != nil {
		return false, err
	}
	r.u8()
	readCell(r, p, lteCell)
	readStatusModel(r, p, k.model)
	return true, r.err
}

// sl4xStatusPacket is 0x32 in a 0x7878 frame. The SL4X (content 34 or 36
// bytes): fix, cell block length (10), MCC, MNC (2), LAC (2), cell id (4),
// status, language, then the altitude (m) in the long form. Others: the
// 0x16 layout.
func sl4xStatusPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	if k.size != sizeSL4XStatus && k.size != sizeSL4XStatusAl {
		return alarmPacket(r, p, k)
	}
	if err := readGPS(r, p, fullGPS); err != nil {
		return false, err
	}
	block := &reader{b: r.next(r.u8())}
	readCell(block, p, cellLayout{wideMNC: true, cidSize: 4})
	readStatusModel(r, p, k.model)
	r.u8() // language
	if r.left() == 2 {
		p.Altitude = float64(int16(r.u16()))
	}
	return true, r.err
}

// az735Packet is 0x32 (GPS) and 0x33 (alarm) in 0x7979 frames (AZ735):
// time, GPS block led by its length (0: no fix; else satellites, latitude,
// longitude, speed, course/status), serving cell led by its length (then
// the signal), further cells (length, then LAC 2, cell id 3, signal 1
// each), Wi-Fi (length, then MAC 6, signal 1 each), status, and a reserved
// block led by its length. 0x33 status: A0 armed, A1 disarmed, A2/A3 low
// battery, A4 alarm, A5 door.
func az735Packet(r *reader, p *model.Position, k *pkt) (bool, error) {
	t, err := readTime(r)
	if err != nil {
		return false, err
	}
	p.DeviceTime = t
	if n := r.u8(); n > 0 {
		gps := &reader{b: append([]byte{
			byte(t.Year() - 2000), byte(t.Month()), byte(t.Day()),
			byte(t.Hour()), byte(t.Minute()), byte(t.Second())}, r.next(n)...)}
		if err := readGPS(gps, p, fullGPS); err != nil {
			return false, err
		}
	} else {
		p.Outdated = true
	}
	var mcc, mnc int
	var towers, aps []map[string]any
	if n := r.u8(); n > 0 {
		cell := &reader{b: r.next(n - 1)}
		mcc, mnc = cell.u16(), cell.u8()
		lac, cid := cell.u16(), cell.uint(3)
		rssi := r.u8()
		if cell.err == nil && (lac > 0 || cid > 0) {
			tower := cellTower(mcc, mnc, lac, cid)
			tower["signalStrength"] = -rssi
			towers = append(towers, tower)
		}
		p.Attributes["rssi"] = rssi
	}
	more := &reader{b: r.next(r.u8())}
	for more.left() >= 6 {
		lac, cid, rssi := more.u16(), more.uint(3), more.u8()
		if lac > 0 && mcc > 0 {
			tower := cellTower(mcc, mnc, lac, cid)
			tower["signalStrength"] = -rssi
			towers = append(towers, tower)
		}
	}
	wifi := &reader{b: r.next(r.u8())}
	for wifi.left() >= 7 {
		mac, signal := wifi.next(6), wifi.u8()
		if !allZero(mac) {
			aps = append(aps, wifiPoint(mac, signal, false))
		}
	}
	if n := cellNetwork(false, towers, aps); n != nil {
		p.Network = n
	}
	status := r.u8()
	p.Attributes["status"] = status
	if k.typ == msgAZ735Alarm {
		switch status {
		case 0xA0:
			p.Attributes["armed"] = true
		case 0xA1:
			p.Attributes["armed"] = false
		case 0xA2, 0xA3:
			addAlarm(p, "lowBattery")
		case 0xA4:
			addAlarm(p, "general")
		case 0xA5:
			addAlarm(p, "door")
		}
	}
	r.next(r.u8()) // reserved
	return true, r.err
}

// modularPacket is 0x70: modules of type (2 bytes), length (2) and value.
// 0x03 ICCID, 0x09 satellites, 0x0A visible satellites, 0x11 cell (MCC 2,
// MNC 2, LAC 2, cell id 3, signal 1), 0x18 battery (0.01 V), 0x28 HDOP
// (0.1), 0x29 index, 0x2A inputs (low nibble door, high nibble tamper),
// 0x2B boot reason, 0x2E odometer (m), 0x33 fix (Unix time, satellites,
// altitude, latitude, longitude, speed, course/status), 0x34 event (code,
// time, content), 0x7F BLE tag (id, battery mV, level, temperature 0.1 °C,
// humidity, status). Answered, as Traccar does, with a 0x7878 ACK.
func modularPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	fixed := false
	for r.left() >= 4 && r.err == nil {
		typ, n := r.u16(), r.u16()
		v := &reader{b: r.next(n)}
		switch typ {
		case 0x03:
			p.Attributes["iccid"] = hexString(v.next(10))
		case 0x09:
			p.Attributes["sat"] = v.u8()
		case 0x0A:
			p.Attributes["satVisible"] = v.u8()
		case 0x11:
			mcc, mnc, lac, cid, rssi := v.u16(), v.u16(), v.u16(), v.uint(3), v.u8()
			if v.err == nil && cid > 0 {
				tower := cellTower(mcc, mnc, lac, cid)
				tower["signalStrength"] = -rssi
				p.Network = network(tower)
			}
		case 0x18:
			p.Attributes["battery"] = float64(v.u16()) / 100
		case 0x28:
			p.Attributes["hdop"] = float64(v.u8()) / 10
		case 0x29:
			p.Attributes["index"] = v.uint(4)
		case 0x2A:
			in := v.u8()
			p.Attributes["door"] = in&0x0F > 0
			p.Attributes["tamper"] = in>>4 > 0
		case 0x2B:
			p.Attributes["bootReason"] = v.u8()
		case 0x2E:
			p.Attributes["odometer"] = v.uint(4)
		case 0x33:
			t := time.Unix(v.uint(4), 0).UTC()
			if t.Year() < 2000 || t.Year() > 2255 {
				continue // no fix yet: the module is zeros
			}
			p.Attributes["sat"] = v.u8()
			p.Altitude = float64(int16(v.u16()))
			// The rest is a GPS block without its time and satellites.
			gps := append([]byte{byte(t.Year() - 2000), byte(t.Month()), byte(t.Day()),
				byte(t.Hour()), byte(t.Minute()), byte(t.Second())}, v.next(11)...)
			if v.err == nil {
				if err := readGPS(&reader{b: gps}, p, gpsLayout{speed: true}); err != nil {
					return false, err
				}
				fixed = true
			}
		case 0x34:
			event := v.u8()
			p.Attributes["event"] = event
			addAlarm(p, modularEvents[event])
		case 0x7F:
			p.Attributes["tag1Id"] = hexString(v.next(6))
			p.Attributes["tag1Battery"] = float64(v.u16()) / 1000
			p.Attributes["tag1BatteryLevel"] = v.u8()
			p.Attributes["tag1Temp"] = float64(int16(v.u16())) / 10
			p.Attributes["tag1Humidity"] = int(int16(v.u16()))
			p.Attributes["tag1Status"] = v.u8()
		}
	}
	if !fixed {
		p.Outdated = true
	}
	k.ack = response(false, msgModular, nil, k.serial)
	return true, r.err
}

// modularEvents maps the 0x34 module's event codes.
var modularEvents = map[int]string{
	0x10: "door", 0x12: "removing", 0x14: "geofenceEnter", 0x15: "geofenceExit",
	0x16: "temperature", 0x1A: "lowBattery", 0x1B: "overspeed", 0x1C: "powerOn",
	0x1D: "powerOff", 0x20: "vibration", 0x21: "powerCut", 0x23: "tampering",
}

// statusItemsPacket is 0xF1 (device status) and 0xF2 (peripherals, VL842):
// a Unix time, then items of id (2 bytes), length (1) and value. 0xF1: 0x01
// motion (2 or 4: moving), 0x02 armed, 0x04 ACC, 0x05 external power (0.01
// V), 0x07 charging, 0x0A charge voltage, 0x0B battery temperature (0.1
// °C). 0xF2: 0x0A Bluetooth peripheral with a 2-byte length (MAC type, MAC,
// event, event data, data type, details), 0x0C external battery (level,
// charging, cycles); a zero length is followed by the real one. Answered,
// as Traccar does, with a 0x7878 ACK.
func statusItemsPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	p.Outdated = true
	p.DeviceTime = time.Unix(r.uint(4), 0).UTC()
	for r.left() >= 3 && r.err == nil {
		id := r.u16()
		var n int
		if k.typ == msgPeripheral && id == 0x0A {
			n = r.u16()
		} else if n = r.u8(); n == 0 && k.typ == msgPeripheral {
			n = r.u8()
		}
		v := &reader{b: r.next(n)}
		if k.typ == msgPeripheral {
			switch id {
			case 0x0A:
				v.u8() // MAC type
				p.Attributes["mac"] = hexString(v.next(6))
				event, data := v.u8(), v.u8()
				p.Attributes["event"] = event
				if event > 0 {
					p.Attributes["eventData"] = data
				}
				p.Attributes["dataType"] = v.u8()
				p.Attributes["dataDetails"] = hexString(v.next(v.left()))
			case 0x0C:
				p.Attributes["externalBatteryLevel"] = v.u8()
				if v.u8() > 0 {
					p.Attributes["externalBatteryCharge"] = true
				}
				p.Attributes["externalBatteryCycles"] = v.u16()
			}
			continue
		}
		switch id {
		case 0x01:
			m := v.u8()
			p.Attributes["motion"] = m == 2 || m == 4
		case 0x02:
			p.Attributes["armed"] = v.u8() > 0
		case 0x04:
			p.Attributes["ignition"] = v.u8() > 0
		case 0x05:
			p.Attributes["power"] = float64(v.u16()) / 100
		case 0x07:
			p.Attributes["charge"] = v.u8() > 0
		case 0x0A:
			p.Attributes["chargeVoltage"] = v.u16()
		case 0x0B:
			p.Attributes["batteryTemp"] = float64(v.u16()) / 10
		}
	}
	k.ack = response(false, k.typ, nil, k.serial)
	return true, r.err
}

// serialPacket is 0x9B, data passed through from a device on the serial
// port: a device type byte, then the data, stored as "result" (trimmed
// text when printable, hex otherwise). The tracker expects no answer.
func serialPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	p.Outdated = true
	k.silent = true
	r.u8() // external device type
	data := r.next(r.left())
	printable := true
	for _, c := range data {
		if (c < 0x20 || c > 0x7E) && c != '\r' && c != '\n' && c != '\t' {
			printable = false
			break
		}
	}
	if printable {
		p.Attributes["result"] = strings.TrimSpace(string(data))
	} else {
		p.Attributes["result"] = hexString(data)
	}
	return true, r.err
}

// obdValues names the 0x8C values kept in 0.01 units.
var obdValues = map[uint64]string{0x28: "odometer", 0x2B: "fuel", 0x2D: "coolantTemp", 0x35: "obdSpeed",
	0x36: "rpm", 0x47: "fuelUsed"}

// obdPacket is 0x8C (FM08ABC): time, ACC, then ASCII "id=value" pairs
// separated by commas, the value in hex; the last 12 bytes are not read.
// Ids by their first two hex digits: 0x28 odometer, 0x2B fuel, 0x2D
// coolant temperature, 0x35 OBD speed, 0x36 rpm, 0x47 fuel used (all
// 0.01 units), 0x49 engine hours (0.01 h), 0x4A VIN. The tracker expects
// no answer.
func obdPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	k.silent = true
	t, err := readTime(r)
	if err != nil {
		return false, err
	}
	p.DeviceTime, p.Outdated = t, true
	p.Attributes["ignition"] = r.u8() > 0
	if r.left() < 12 {
		return false, errShort
	}
	for _, pair := range strings.Split(string(r.next(r.left()-12)), ",") {
		key, value, _ := strings.Cut(pair, "=")
		if len(key) < 2 || value == "" {
			continue
		}
		id, err := strconv.ParseUint(key[:2], 16, 8)
		if err != nil {
			continue
		}
		if id == 0x4A {
			p.Attributes["vin"] = value
			continue
		}
		v, err := strconv.ParseUint(value, 16, 32)
		if err != nil {
			continue
		}
		name := obdValues[id]
		switch {
		case name != "":
			p.Attributes[name] = float64(v) / 100
		case id == 0x49:
			p.Attributes["hours"] = int64(v) * 36_000 // 0.01 h in ms
		}
	}
	return true, r.err
}

// wifiListPacket is 0xF3: time (binary, like the other packets; the
// sample's 0x0C month is no BCD digit), access point count, then per access
// point 2 bytes (zero in the samples, not read) and the MAC. Stored as a
// no-fix position with the access points; as Traccar, not answered.
func wifiListPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	k.silent = true
	t, err := readTime(r)
	if err != nil {
		return false, err
	}
	p.DeviceTime, p.Outdated = t, true
	var aps []map[string]any
	for range r.u8() {
		r.next(2)
		mac := r.next(6)
		if r.err == nil && !allZero(mac) {
			ap := wifiPoint(mac, 0, false)
			delete(ap, "signalStrength")
			aps = append(aps, ap)
		}
	}
	if n := cellNetwork(false, nil, aps); n != nil {
		p.Network = n
	}
	return true, r.err
}
