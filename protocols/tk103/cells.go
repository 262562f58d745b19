package tk103

import (
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Positions without a GPS fix carry the cells (and Wi-Fi access points) the
// device sees in Network, shaped like Traccar's Network object, so the
// ingest or a geolocation service can place them.

func cellTower(mcc, mnc, lac int, cid int64) map[string]any {
	return map[string]any{"mobileCountryCode": mcc, "mobileNetworkCode": mnc, "locationAreaCode": lac, "cellId": cid}
}

// decodeCells decodes BZ00 `,<mcc>,<mnc>,<lac hex>,<cid hex>,...`: the
// serving cell, then neighbours either as `<lac>,<cid>` pairs or as
// `<lac>,<cid>,<signal>` triples, and on some firmware the status flags
// last. The signal's unit is not documented, so it is not kept.
func decodeCells(h header, now time.Time) (*model.Position, error) {
	f := strings.Split(strings.TrimPrefix(h.body, ","), ",")
	if len(f) < 4 {
		return nil, invalid(h, "cell")
	}
	mcc, err1 := strconv.ParseUint(f[0], 10, 16)
	mnc, err2 := strconv.ParseUint(f[1], 10, 16)
	if err1 != nil || err2 != nil {
		return nil, invalid(h, "cell")
	}
	pos := outdated(now)
	rest := f[2:]
	if last := rest[len(rest)-1]; len(rest) > 2 && isFlags(last) {
		applyStatus(pos.Attributes, last)
		rest = rest[:len(rest)-1]
	}
	step := 2 // lac, cid
	switch {
	case len(rest)%3 == 0 && signalTriples(rest):
		step = 3
	case len(rest)%2 != 0:
		rest = rest[:2] // a layout we do not know: the serving cell only
	}
	var towers []map[string]any
	for i := 0; i+1 < len(rest); i += step {
		lac, err1 := strconv.ParseUint(rest[i], 16, 32)
		cid, err2 := strconv.ParseUint(rest[i+1], 16, 32)
		if err1 != nil || err2 != nil || rest[i] == "" || rest[i+1] == "" {
			return nil, invalid(h, "cell")
		}
		towers = append(towers, cellTower(int(mcc), int(mnc), int(lac), int64(cid)))
	}
	pos.Network = protocols.Network(towers, nil)
	return pos, nil
}

// signalTriples reports whether f reads as `<lac>,<cid>,<signal>` groups:
// 3- or 4-digit hex cell fields and a 1- or 2-digit decimal signal.
func signalTriples(f []string) bool {
	for i := 0; i+2 < len(f); i += 3 {
		if len(f[i]) < 3 || len(f[i+1]) < 3 || len(f[i+2]) > 2 || f[i+2] == "" || !allDigits(f[i+2]) {
			return false
		}
	}
	return true
}

// isFlags reports whether s is the 8-character status flags
// `<charge 0|1><ignition 0|1><io hex x3><fuel hex x3>`.
func isFlags(s string) bool {
	if len(s) != 8 || s[0] != '0' && s[0] != '1' || s[1] != '0' && s[1] != '1' {
		return false
	}
	for i := 2; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

// decodeCellList decodes the cell list a BP05 login or a BZ00 sends when
// it has no fix: `[<imei>],{<mcc>,<mnc>,<lac>,<cid>}\n{...}\n,<flags>`,
// decimal numbers.
func decodeCellList(h header, now time.Time) (*model.Position, error) {
	open, end := strings.IndexByte(h.body, '{'), strings.LastIndexByte(h.body, '}')
	if open < 0 || end < open {
		return nil, invalid(h, "cell list")
	}
	if head := h.body[:open]; head != "," && (!strings.HasSuffix(head, ",") || !allDigits(strings.TrimSuffix(head, ","))) {
		return nil, invalid(h, "cell list")
	}
	pos := outdated(now)
	var towers []map[string]any
	for _, cell := range strings.Split(h.body[open:end], "}") {
		cell = strings.TrimLeft(cell, "\r\n")
		v := strings.Split(strings.TrimPrefix(cell, "{"), ",")
		if !strings.HasPrefix(cell, "{") || len(v) != 4 {
			return nil, invalid(h, "cell list")
		}
		var n [4]uint64
		for i := range n {
			var err error
			if n[i], err = strconv.ParseUint(v[i], 10, 32); err != nil {
				return nil, invalid(h, "cell list")
			}
		}
		towers = append(towers, cellTower(int(n[0]), int(n[1]), int(n[2]), int64(n[3])))
	}
	tail := strings.TrimPrefix(strings.TrimLeft(h.body[end+1:], "\r\n"), ",")
	switch {
	case isFlags(tail):
		applyStatus(pos.Attributes, tail)
	case tail != "":
		return nil, invalid(h, "cell list")
	}
	pos.Network = protocols.Network(towers, nil)
	return pos, nil
}

// decodeLBS decodes the comma form's cell and Wi-Fi report (DW5x):
// `<mcc>,<mnc>,<lac>,<cid>,<n>,<mac>*<dBm>*<channel> x n,<ddMMyy>,<HHmmss>`,
// decimal numbers.
func decodeLBS(h header) (*model.Position, error) {
	f := strings.Split(h.body, ",")
	if len(f) < 7 {
		return nil, invalid(h, "cell report")
	}
	var v [5]uint64
	for i := range v {
		var err error
		if v[i], err = strconv.ParseUint(f[i], 10, 32); err != nil {
			return nil, invalid(h, "cell report")
		}
	}
	count := int(v[4])
	if len(f) < 7+count {
		return nil, invalid(h, "Wi-Fi list")
	}
	var points []map[string]any
	for _, ap := range f[5 : 5+count] {
		p, ok := wifiPoint(ap)
		if !ok {
			return nil, invalid(h, "Wi-Fi access point")
		}
		points = append(points, p)
	}
	t, err := stampTime(f[5+count], f[6+count])
	if err != nil {
		return nil, invalid(h, "time")
	}
	pos := outdated(t)
	pos.Network = protocols.Network([]map[string]any{cellTower(int(v[0]), int(v[1]), int(v[2]), int64(v[3]))}, points)
	applyType(pos.Attributes, h.typ, "")
	return pos, nil
}

// wifiPoint reads `<mac>*<dBm>*<channel>`.
func wifiPoint(s string) (map[string]any, bool) {
	p := strings.Split(s, "*")
	if len(p) != 3 || !isMAC(p[0]) {
		return nil, false
	}
	signal, err1 := strconv.Atoi(p[1])
	channel, err2 := strconv.Atoi(p[2])
	if err1 != nil || err2 != nil || signal < -200 || signal > 200 || channel < 0 || channel > 255 {
		return nil, false
	}
	return map[string]any{"macAddress": strings.ToLower(p[0]), "signalStrength": signal, "channel": channel}, true
}

// isMAC reports whether s is `xx:xx:xx:xx:xx:xx`.
func isMAC(s string) bool {
	if len(s) != len("00:00:00:00:00:00") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if i%3 == 2 {
			if s[i] != ':' {
				return false
			}
		} else if !isHex(s[i]) {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}
