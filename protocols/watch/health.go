package watch

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// health is a kind of health reading frame.
type health struct {
	// read sets the readings of the values on pos.
	read func(pos *model.Position, f []string) error
	// answer is the server's answer the makers' documents give, "" for none.
	answer string
}

// healthTypes are the health reading frames by lower-case type: PULSE and
// heart "rate"; BLOOD and bphrt "systolic,diastolic[,rate,...]"; TEMP
// "celsius"; btemp2 "mode,celsius" (mode 0 forehead, 1 wrist); oxygen
// "mode,percent". A reading of 0 means none was taken, and btemp2 sends 0
// and 1 for a temperature out of the sensor's range: neither is kept.
var healthTypes = map[string]health{
	"pulse": {read: heartRate(0)},
	"heart": {read: heartRate(0)},
	"blood": {read: bloodPressure},
	"bphrt": {read: bloodPressure, answer: "bphrt"},
	"temp":  {read: temperature(0)},
	"btemp2": {read: func(pos *model.Position, f []string) error {
		if len(f) < 2 || f[1] == "1" {
			return nil
		}
		return temperature(1)(pos, f)
	}, answer: "btemp2"},
	"oxygen": {read: func(pos *model.Position, f []string) error {
		return setReading(pos, "bloodOxygen", f, 1)
	}, answer: "oxygen,1"},
}

func heartRate(i int) func(*model.Position, []string) error {
	return func(pos *model.Position, f []string) error { return setReading(pos, "heartRate", f, i) }
}

func bloodPressure(pos *model.Position, f []string) error {
	for i, key := range []string{"pressureHigh", "pressureLow", "heartRate"} {
		if err := setReading(pos, key, f, i); err != nil {
			return err
		}
	}
	return nil
}

func temperature(i int) func(*model.Position, []string) error {
	return func(pos *model.Position, f []string) error {
		if i >= len(f) || f[i] == "" || f[i] == "0" {
			return nil
		}
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil || !isNumber(f[i]) {
			return fmt.Errorf("temperature %.16q", f[i])
		}
		pos.Attributes["temp1"] = v
		return nil
	}
}

// setReading sets key to the whole number f[i] (a decimal one for oxygen
// readings sent as such); a missing, empty or zero value sets nothing.
func setReading(pos *model.Position, key string, f []string, i int) error {
	if i >= len(f) || f[i] == "" {
		return nil
	}
	var v any
	if n, err := strconv.Atoi(f[i]); err == nil {
		v = n
	} else if x, err := strconv.ParseFloat(f[i], 64); err == nil && isNumber(f[i]) {
		v = x
	} else {
		return fmt.Errorf("%s %.16q", key, f[i])
	}
	if v != 0 && v != 0.0 {
		pos.Attributes[key] = v
	}
	return nil
}

// decodeHealth keeps the readings of a health frame in a position without
// a location, answered (where the watch expects it) once stored. A frame
// with no reading is answered at once.
func (p *Protocol) decodeHealth(m *message, h health) (protocols.Result, error) {
	var res protocols.Result
	pos := p.outdated()
	if err := h.read(pos, strings.Split(m.values, ",")); err != nil {
		return res, err
	}
	var answer []byte
	if h.answer != "" {
		answer = m.answer(h.answer)
	}
	if len(pos.Attributes) == 0 {
		res.Reply = answer
		return res, nil
	}
	res.Positions, res.Ack = []*model.Position{pos}, answer
	return res, nil
}
