package tk103

import (
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// decodeCell decodes BZ00 `,<mcc>,<mnc>,<lac hex>,<cid hex>,...`: the
// serving cell, with no GPS location.
func decodeCell(h header, now time.Time) (*model.Position, error) {
	f := strings.Split(strings.TrimPrefix(h.body, ","), ",")
	if len(f) < 4 {
		return nil, invalid(h, "cell")
	}
	mcc, err1 := strconv.ParseUint(f[0], 10, 16)
	mnc, err2 := strconv.ParseUint(f[1], 10, 16)
	lac, err3 := strconv.ParseUint(f[2], 16, 32)
	cid, err4 := strconv.ParseUint(f[3], 16, 32)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		return nil, invalid(h, "cell")
	}
	pos := outdated(now)
	tower := map[string]any{"mobileCountryCode": int64(mcc), "mobileNetworkCode": int64(mnc),
		"locationAreaCode": int64(lac), "cellId": int64(cid)}
	pos.Network = map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": []any{tower}}
	return pos, nil
}

// batteryLevels maps the ZC20 battery grade to a percentage.
var batteryLevels = map[int64]int64{6: 100, 5: 80, 4: 50, 3: 20, 2: 10}

// unknownVoltage is the ZC20 value for a voltage the device cannot read.
const unknownVoltage = 65535

// decodeBattery decodes ZC20 `ddMMyy,HHmmss,<grade>,<battery cV>,<power dV>,...`.
func decodeBattery(h header, now time.Time) (*model.Position, error) {
	f := strings.Split(h.body, ",")
	if len(f) < 5 {
		return nil, invalid(h, "battery report")
	}
	t, err := stampTime(f[0], f[1])
	if err != nil {
		return nil, invalid(h, "time")
	}
	var v [3]int64
	for i := range v {
		if v[i], err = strconv.ParseInt(f[2+i], 10, 32); err != nil {
			return nil, invalid(h, "battery report")
		}
	}
	pos := outdated(t)
	if level, ok := batteryLevels[v[0]]; ok {
		pos.Attributes["batteryLevel"] = level
	}
	if v[1] != unknownVoltage {
		pos.Attributes["battery"] = float64(v[1]) * 0.01
	}
	if v[2] != unknownVoltage {
		pos.Attributes["power"] = float64(v[2]) * 0.1
	}
	return pos, nil
}

// commandResult returns the text of ZC03 `ddMMyy,HHmmss,$<text>$`.
func commandResult(h header) (string, error) {
	_, text, ok := strings.Cut(h.body, "$")
	if !ok {
		return "", invalid(h, "command result")
	}
	text, _, _ = strings.Cut(text, "$")
	return text, nil
}

// stampTime reads the comma form's ddMMyy and HHmmss fields.
func stampTime(date, clock string) (time.Time, error) {
	if len(date) != 6 || len(clock) != 6 || strings.IndexFunc(date+clock, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return time.Time{}, model.ErrInvalid
	}
	return frameTime(date, clock, true), nil
}
