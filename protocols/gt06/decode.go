package gt06

import (
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Protocol numbers handled here.
const (
	msgLogin        = 0x01
	msgGPS          = 0x10
	msgGPSLBS6      = 0x11 // 2-byte MNC, 4-byte cell id
	msgGPSLBS       = 0x12
	msgStatus       = 0x13 // heartbeat with terminal status
	msgString       = 0x15 // command answer, 0x7878
	msgGPSLBSStatus = 0x16 // alarm packet
	msgLBSExtend    = 0x18 // 7 cells + Wi-Fi, like 0x2C
	msgGPSCells     = 0x1E // GPS + 7 cells (JI09)
	msgWifi         = 0x17 // Wi-Fi + cells, no CRC (see wifiFrame); also GPS+RFID on some models
	msgLBSStatus    = 0x19
	msgStringInfo   = 0x21 // command answer, 0x7979
	msgGPSLBS2      = 0x22
	msgHeartbeat    = 0x23 // GK310 heartbeat: status, battery voltage, signal
	msgGPSLBSStat2  = 0x26
	msgGPSLBSStat3  = 0x27
	msgLBSMultiple  = 0x28
	msgLBSWifi      = 0x2C // 7 cells + Wi-Fi access points
	msgLBSMultiple2 = 0x2E // 7 cells, like 0x28
	msgGPSModules   = 0x37 // GPS + cell + ACC tail + (type, length, value) modules
	msgGPSExtended  = 0x38 // 0x7979 GPS packet
	msgIButton      = 0x61 // IMEI, GPS, cell, iButton driver id
	msgWifi2        = 0x69 // Wi-Fi + cells, no CRC (see wifiFrame)
	msgCommand0     = 0x80
	msgCommand1     = 0x81
	msgCommand2     = 0x82
	msgTimeRequest  = 0x8A // the device asks for the current time
	msgInfo         = 0x94 // information transmission, no answer
	msgGPSLBS4G     = 0xA0 // GPS + 4G serving cell (GK310, JM-VL03)
	msgLBS4G        = 0xA1 // 7 4G cells, no fix (GK310)
	msgWifi4G       = 0xA2 // 7 4G cells + Wi-Fi access points (GK310)
	msgLBSAlarm4G   = 0xA5 // alarm without a fix: 4G cell, status (GK310, JM-LL301)
	msgFence4G      = 0xA4 // multi-fence alarm: GPS, 4G cell, status (GK310, JM-LL301)
	msgAlarm        = 0x95 // JC100 alarm; JC400 when the content starts FF FF
	msgLBSMultiple3 = 0x24 // 7 cells; GPS + cell + power on SR411 mini; cell count on Wanway S20
	msgGPSLBSDriver = 0x25 // NT/XT40 models: GPS + cell + status + driver id
	msgAddress      = 0x2A // GPS address request
	msgGPSLBS5      = 0x31 // GPS + cell + ACC tail (AZ735, SL4X)
	msgGPSLBSStat4  = 0x32 // 0x7878: GPS + cell + status (SL4X); 0x7979: AZ735 GPS
	msgAZ735Alarm   = 0x33 // 0x7979: AZ735 alarm
	msgX1GPS        = 0x34 // X1: GPS, odometer, cell, driver, power, I/O
	msgStatus2      = 0x36 // 0x7878: TRX16I location + RFID, or Jimi IoT 4G status + modules
	msgModular      = 0x70 // 0x7979: (type, length, value) modules
	msgAddressReply = 0x97 // our answer to an address request (0x7979)
	msgFence1       = 0xA3 // GK310 single-fence alarm; a status packet on SEEWORLD
	msgLBSAddress   = 0xA7 // 4G address request: cell, phone number
	msgDeviceStatus = 0xF1 // 0x7979: time + (id, length, value) status items
	msgSerial       = 0x9B // 0x7979: serial port pass-through
	msgOBD          = 0x8C // 0x7979: OBD values as ASCII (FM08ABC)
	msgPeripheral   = 0xF2 // 0x7979: time + peripheral items (VL842)
	msgWifiList     = 0xF3 // 0x7878: time + Wi-Fi access points
)

// Decode implements protocols.Stream. Position frames are answered through
// Result.Ack, so the device only drops them once they are stored; data-free
// messages (login, heartbeat, time request) get Result.Reply at once. A
// packet type fleetd does not decode gets no answer at all, so the device
// keeps it and resends instead of dropping data nobody stored.
func (p *Protocol) Decode(c *protocols.Conn, b []byte) (protocols.Result, error) {
	f, err := parseFrame(b)
	if err != nil {
		return protocols.Result{}, err
	}
	if f.typ == msgLogin {
		return login(b, f)
	}
	noCRCFix(b, &f)
	if !f.long && (f.typ == msgWifi || f.typ == msgWifi2) {
		if res, ok := wifiFrame(b); ok {
			return res, nil
		}
	}
	res := protocols.Result{ChecksumError: f.crcBad}
	if f.typ == msgTimeRequest {
		// Answered as Traccar does: the UTC time, YY MM DD hh mm ss, in a
		// 0x7878 frame with serial number 0.
		now := p.now.Now()
		stamp := []byte{byte(now.Year() - 2000), byte(now.Month()), byte(now.Day()),
			byte(now.Hour()), byte(now.Minute()), byte(now.Second())}
		res.Reply = response(false, msgTimeRequest, stamp, []byte{0, 0})
		return res, nil
	}
	if len(f.content) == 0 {
		// A bare type + serial is an echo of our own answer: nothing to do.
		return res, nil
	}
	r := &reader{b: f.content}
	switch f.typ {
	case msgStringInfo:
		res.CommandResult, err = commandText(r)
		return res, err
	case msgString:
		// Answered once the result is recorded; without the answer the
		// device sends it again. "<ICCID:...>" is the SIM's ICCID, stored.
		text := stringText(r)
		if r.err != nil {
			return res, r.err
		}
		res.Ack = response(false, f.typ, nil, f.serial)
		if iccid, ok := strings.CutPrefix(text, "<ICCID:"); ok {
			pos := &model.Position{Protocol: Name, Attributes: model.Attributes{}, Outdated: true}
			pos.Attributes["iccid"] = strings.TrimSuffix(iccid, ">")
			res.Positions = []*model.Position{pos}
			return res, nil
		}
		res.CommandResult = text
		return res, nil
	case msgCommand0, msgCommand1, msgCommand2:
		return res, nil
	}
	k := &pkt{typ: f.typ, long: f.long, size: len(f.content), model: modelName(c), serial: f.serial}
	decode := decoders[f.typ]
	if decode == nil {
		decode = longDecoders[f.typ]
		if !f.long {
			decode = shortDecoders[f.typ]
		}
	}
	if decode == nil {
		// Not decoded, so not stored: no answer, the device keeps the data.
		res.Unsupported = "message type 0x" + strconv.FormatUint(uint64(f.typ), 16) + " not decoded"
		return res, nil
	}
	pos := &model.Position{Protocol: Name, Attributes: model.Attributes{}}
	keep, err := decode(r, pos, k)
	if err == nil {
		err = r.err
	}
	if err != nil {
		return res, err
	}
	if !keep {
		res.Unsupported = k.unsupported
		if res.Unsupported == "" {
			res.Unsupported = "message type 0x" + strconv.FormatUint(uint64(f.typ), 16) + " layout not decoded"
		}
		return res, nil
	}
	res.Positions = []*model.Position{pos}
	switch {
	case k.silent:
		// The device expects no answer.
	case k.ack != nil:
		res.Ack = k.ack
	default:
		// Heartbeats (0x13, 0x23) too: they carry status and alarms.
		res.Ack = response(f.long, f.typ, nil, f.serial)
	}
	return res, nil
}

// pkt is what a decoder knows of its frame besides the content, and what
// it says back about the answer.
type pkt struct {
	typ    int
	long   bool   // 0x7979 header
	size   int    // content length, which tells several model layouts apart
	model  string // Conn.Model in upper case, for layouts length cannot tell
	serial []byte

	ack         []byte // an answer other than the standard ACK
	silent      bool   // the message expects no answer
	unsupported string // why a frame of a known type was not decoded
}

// modelName is the connection's device model in upper case.
func modelName(c *protocols.Conn) string {
	if c == nil {
		return ""
	}
	return strings.ToUpper(strings.TrimSpace(c.Model))
}

// login answers a login frame. Some devices send a login whose length field
// counts more bytes than follow, so the frame ends right after the IMEI
// (and a byte or two): the IMEI is then read from where it starts anyway.
// The answer is a 0x7878 frame whatever the login's header, as Traccar
// answers (no document shows a 0x7979 login answer).
func login(b []byte, f frame) (protocols.Result, error) {
	res := protocols.Result{ChecksumError: f.crcBad}
	start := 4
	if f.long {
		start = 5
	}
	if len(b) < start+8+2 {
		return res, errShort
	}
	if len(f.content) < 8 {
		// No room for a serial number and a CRC: nothing to check.
		res.ChecksumError = false
	}
	res.UniqueID = hex.EncodeToString(b[start : start+8])[1:] // 8 BCD bytes hold 16 digits, IMEI has 15
	res.Reply = response(false, msgLogin, nil, f.serial)
	return res, nil
}

// noCRCFix handles the GPS packets (0x10, 0x11) of devices whose length
// field counts the content only and which send no serial number and no
// CRC: 78 78, length, type, fix (18 bytes) and maybe a few more bytes,
// 0D 0A. Only the fix is read. The answer echoes the two bytes where the
// serial number would be, as Traccar does.
func noCRCFix(b []byte, f *frame) {
	if f.long || !f.crcBad || (f.typ != msgGPS && f.typ != msgGPSLBS6) || int(b[2]) != len(b)-6 || len(b) < 6+18 {
		return
	}
	f.content = b[4 : 4+18]
	f.crcBad = false
}

// decoder fills p from a frame's content; keep false means the frame yields
// no position. size is the content length, which selects model variants.
// decoder fills p from a frame's content; keep false means the frame yields
// no position (k.unsupported says why).
type decoder func(r *reader, p *model.Position, k *pkt) (keep bool, err error)

var decoders = map[int]decoder{
	msgGPS:          gpsPacket(cellLayout{}),
	msgGPSLBS:       gpsLBSPacket,
	msgGPSLBS2:      gpsLBS2Packet,
	msgGPSLBSDriver: gpsLBSDriverPacket,
	msgGPSLBS6:      gpsPacket(cellLayout{wideMNC: true, cidSize: 4}),
	msgGPSLBS5:      gpsLBS5Packet,
	msgLBSMultiple3: lbsMultiple3Packet,
	msgAddress:      addressPacket,
	msgLBSAddress:   lbsAddressPacket,
	msgX1GPS:        x1Packet,
	msgFence1:       fence1Packet,
	msgGPSExtended:  gpsPacket(cellLayout{}),
	msgGPSLBS4G:     gpsPacket(lteCell),
	msgGPSLBSStatus: alarmPacket,
	msgGPSLBSStat2:  alarmPacket,
	msgGPSLBSStat3:  alarmPacket,
	msgStatus:       statusPacket,
	msgHeartbeat:    heartbeatPacket,
	msgLBSStatus:    lbsStatusPacket,
	msgLBSMultiple:  lbsMultiple(cellList{}),
	msgLBSMultiple2: lbsMultiple(cellList{}),
	msgLBSExtend:    lbsMultiple(cellList{wifi: true}),
	msgGPSCells:     gpsCellsPacket,
	msgGPSModules:   gpsModulesPacket,
	msgIButton:      iButtonPacket,
	msgLBSAlarm4G:   lbsAlarmPacket,
	msgLBSWifi:      lbsMultiple(cellList{wifi: true}),
	msgLBS4G:        lbsMultiple(cellList{lte: true}),
	msgWifi4G:       wifi4GPacket,
	msgWifi:         rfidPacket,
	msgFence4G:      fenceAlarmPacket,
	msgInfo:         infoPacket,
	msgAlarm:        jc100AlarmPacket,
}

// heartbeatPacket is the GK310 heartbeat (0x23): a status byte (bit 0
// armed, bit 1 ACC, bit 2 charging), then the battery voltage in 0.01 V and
// the GSM signal when present.
func heartbeatPacket(r *reader, p *model.Position, _ *pkt) (bool, error) {
	p.Outdated = true
	status := r.u8()
	p.Attributes["armed"] = status&1 != 0
	p.Attributes["ignition"] = status&(1<<1) != 0
	p.Attributes["charge"] = status&(1<<2) != 0
	if r.left() >= 2 {
		p.Attributes["battery"] = float64(r.u16()) / 100
	}
	if r.left() >= 1 {
		p.Attributes["rssi"] = r.u8()
	}
	return true, nil
}

func lbsStatusPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	p.Outdated = true
	readCell(r, p, cellLayout{cidSize: 3})
	readStatusModel(r, p, k.model)
	return true, nil
}

// cellList is the layout of the packets that carry no fix but a list of
// cells (and maybe Wi-Fi access points): time, MCC, MNC, then seven cells
// of LAC, cell id and signal sharing that MCC/MNC.
type cellList struct {
	lte  bool // 4-byte LAC and 8-byte cell id (0xA1, 0xA2); else 2 and 3
	wifi bool // then timing advance, access point count, (MAC, signal) each
}

// lbsMultiple decodes a cell list packet into an outdated position whose
// network holds the cells and access points (the ingest keeps the last
// known coordinates). Cells with LAC 0 and all-zero MACs are padding.
func lbsMultiple(l cellList) decoder {
	return func(r *reader, p *model.Position, _ *pkt) (bool, error) {
		t, err := readTime(r)
		if err != nil {
			return false, err
		}
		p.DeviceTime, p.Outdated = t, true
		readCellList(r, p, l)
		return true, r.err
	}
}

// readCellList reads MCC, MNC and seven cells (then, with l.wifi, the
// timing advance and the access points) into p.Network.
func readCellList(r *reader, p *model.Position, l cellList) {
	mcc := r.u16()
	mnc := r.u8()
	if mcc&0x8000 != 0 {
		mnc = mnc<<8 | r.u8()
	}
	var towers, aps []map[string]any
	for range 7 {
		var lac int
		var cid int64
		if l.lte {
			lac, cid = int(r.uint(4)), r.uint(8)
		} else {
			lac, cid = r.u16(), r.uint(3)
		}
		rssi := r.u8()
		if lac > 0 && cid >= 0 && r.err == nil {
			tower := cellTower(mcc&0x7FFF, mnc, lac, cid)
			tower["signalStrength"] = -rssi
			towers = append(towers, tower)
		}
	}
	if l.wifi {
		r.u8() // timing advance
		for range r.u8() {
			mac, signal := r.next(6), r.u8()
			if r.err == nil && !allZero(mac) {
				aps = append(aps, wifiPoint(mac, signal, l.lte))
			}
		}
	}
	if n := cellNetwork(l.lte, towers, aps); n != nil {
		p.Network = n
	}
}

// gpsCellsPacket (0x1E, JI09) is a fix followed by a seven-cell list.
func gpsCellsPacket(r *reader, p *model.Position, _ *pkt) (bool, error) {
	if err := readGPS(r, p, fullGPS); err != nil {
		return false, err
	}
	readCellList(r, p, cellList{})
	return true, r.err
}

// gpsModulesPacket (0x37): fix, serving cell, ACC / upload mode /
// re-upload, then modules of type (2 bytes), length (1) and value: 0x27
// external power (0.01 V), 0x2E odometer (m), 0x3B accuracy (0.01 m).
func gpsModulesPacket(r *reader, p *model.Position, _ *pkt) (bool, error) {
	if err := readGPS(r, p, fullGPS); err != nil {
		return false, err
	}
	readCell(r, p, cellLayout{cidSize: 3})
	if r.left() >= 3 {
		p.Attributes["ignition"] = r.u8() > 0
		p.Attributes["event"] = r.u8() // upload mode
		p.Attributes["archive"] = r.u8() > 0
	}
	for r.left() >= 3 && r.err == nil {
		typ, n := r.u16(), r.u8()
		v := &reader{b: r.next(n)}
		switch {
		case typ == 0x27 && n == 2:
			p.Attributes["power"] = float64(v.u16()) / 100
		case typ == 0x2E && n == 4:
			p.Attributes["odometer"] = v.uint(4)
		case typ == 0x3B && n == 2:
			p.Accuracy = float64(v.u16()) / 100
		}
	}
	return true, r.err
}

// iButtonPacket (0x61): IMEI, fix, serving cell with a 4-byte cell id and
// the driver's iButton id (6 bytes, shown in decimal as Traccar does).
func iButtonPacket(r *reader, p *model.Position, _ *pkt) (bool, error) {
	r.next(8) // IMEI, known from the login
	if err := readGPS(r, p, fullGPS); err != nil {
		return false, err
	}
	readCell(r, p, cellLayout{cidSize: 4})
	id := r.uint(6)
	if r.err == nil && id > 0 {
		p.Attributes["driverUniqueId"] = strconv.FormatInt(id, 10)
	}
	return true, r.err
}

// lbsAlarmPacket (0xA5): an alarm without a fix: 4G serving cell, then the
// terminal status and alarm.
func lbsAlarmPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	p.Outdated = true
	readCell(r, p, lteCell)
	readStatusModel(r, p, k.model)
	return true, r.err
}

// wifiPoint is a Traccar WifiAccessPoint. The signal is in dBm: 0x2C
// sends its magnitude, the 4G packets a signed byte.
func wifiPoint(mac []byte, signal int, signed bool) map[string]any {
	parts := make([]string, len(mac))
	for i, b := range mac {
		parts[i] = hex.EncodeToString([]byte{b})
	}
	dBm := -signal
	if signed {
		dBm = int(int8(signal))
	}
	return map[string]any{"macAddress": strings.Join(parts, ":"), "signalStrength": dBm}
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// wifiFrame decodes the Wi-Fi packets 0x17 and 0x69 (GT06 watches and
// small trackers), which break the frame rules: the length byte holds the
// access point count, and there is no serial number and no CRC. Layout:
// 78 78, count, type, BCD time YY MM DD hh mm ss, count x (MAC 6, signal
// 1), cell count, MCC 2, MNC 1, cells x (LAC 2, cell id 2, signal 1), 0D 0A.
// ok is false unless the frame is exactly that long. The answer, written
// once the position is stored, is 78 78 00, type, the BCD time, 0D 0A.
func wifiFrame(b []byte) (protocols.Result, bool) {
	var res protocols.Result
	if len(b) < 4+6+1+3+2 {
		return res, false
	}
	body := b[4 : len(b)-2]
	aps := int(b[2])
	cellsAt := 6 + 7*aps
	if len(body) < cellsAt+3 || len(body) != cellsAt+3+1+5*int(body[cellsAt]) {
		return res, false
	}
	var stamp [6]byte
	for i, c := range body[:6] {
		if c>>4 > 9 || c&0x0F > 9 {
			return res, false
		}
		stamp[i] = (c>>4)*10 + c&0x0F
	}
	t, err := readTime(&reader{b: stamp[:]})
	if err != nil {
		return res, false
	}
	p := &model.Position{Protocol: Name, Attributes: model.Attributes{}, DeviceTime: t, Outdated: true}
	rd := &reader{b: body[6:]}
	var points, towers []map[string]any
	for range aps {
		mac, signal := rd.next(6), rd.u8()
		if !allZero(mac) {
			points = append(points, wifiPoint(mac, signal, false))
		}
	}
	cells := rd.u8()
	mcc, mnc := rd.u16(), rd.u8()
	for range cells {
		lac, cid, rssi := rd.u16(), rd.uint(2), rd.u8()
		if lac > 0 {
			tower := cellTower(mcc, mnc, lac, cid)
			tower["signalStrength"] = -rssi
			towers = append(towers, tower)
		}
	}
	if n := cellNetwork(false, towers, points); n != nil {
		p.Network = n
	}
	res.Positions = []*model.Position{p}
	ack := make([]byte, 0, 12)
	ack = append(ack, 0x78, 0x78, 0x00, b[3])
	ack = append(ack, body[:6]...)
	res.Ack = append(ack, 0x0D, 0x0A)
	return res, true
}

// fenceAlarmPacket is the 4G multi-fence alarm (0xA4): GPS, a serving cell
// block led by its length (16 or 17 bytes: 4G cell; 9: 2G cell), terminal
// status, language and the fence number.
func fenceAlarmPacket(r *reader, p *model.Position, k *pkt) (bool, error) {
	if err := readGPS(r, p, fullGPS); err != nil {
		return false, err
	}
	if r.left() == 0 {
		return false, errShort
	}
	n := int(r.b[0])
	if n > 0 {
		block := &reader{b: r.next(n)}
		l := cellLayout{lengthByte: true, cidSize: 3}
		if n >= 16 {
			l = cellLayout{lengthByte: true, lte: true, cidSize: 8}
		}
		readCell(block, p, l)
		if block.err != nil {
			return false, block.err
		}
	} else {
		r.u8()
	}
	readStatusModel(r, p, k.model)
	r.u8() // language
	if r.left() > 0 {
		p.Attributes["geofence"] = r.u8()
	}
	return true, nil
}
