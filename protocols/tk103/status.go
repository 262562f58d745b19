package tk103

import (
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// batteryLevels maps the ZC20 battery grade to a percentage.
var batteryLevels = map[int64]int64{6: 100, 5: 80, 4: 50, 3: 20, 2: 10}

// unknownVoltage is the ZC20 value for a voltage the device cannot read.
const unknownVoltage = 65535

// decodeBattery decodes ZC20 `ddMMyy,HHmmss,<grade>,<battery cV>,<power dV>,...`.
func decodeBattery(h header) (*model.Position, error) {
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
		pos.Attributes["battery"] = float64(v[1]) / 100
	}
	if v[2] != unknownVoltage {
		pos.Attributes["power"] = float64(v[2]) / 10
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
