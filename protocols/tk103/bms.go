package tk103

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// Battery management system reports of electric vehicle trackers. Neither
// carries a time or a location.

// bs50Len is the length of the BS50 block fleetd reads; devices pad it.
const bs50Len = 88

// decodeBMSBinary decodes BS50, one hex block, little-endian:
//
//	3 header, cell count, 24 x cell mV, charge state (0 charging), current dA,
//	pack cV, level %, overheat, charge protection, discharge protection,
//	drop line, balanced, cycles (2), fault, 6 reserved, temperature count,
//	power temp, balance temp, 7 x cell temp (each +40 °C), capacity cAh (2),
//	discharged capacity (4)
func decodeBMSBinary(h header, now time.Time) (*model.Position, error) {
	b, err := hex.DecodeString(h.body)
	if err != nil || len(b) < bs50Len {
		return nil, invalid(h, "battery report")
	}
	u16 := func(i int) int { return int(binary.LittleEndian.Uint16(b[i:])) }
	pos := outdated(now)
	a := pos.Attributes
	cells := min(int(b[3]), 24)
	for i := range cells {
		a[fmt.Sprintf("battery%d", i+1)] = float64(u16(4+2*i)) / 1000
	}
	a["charge"] = b[52] == 0
	a["current"] = float64(u16(53)) / 10
	a["battery"] = float64(u16(55)) / 100
	a["batteryLevel"] = int(b[57])
	a["batteryOverheat"] = b[58] != 0
	a["chargeProtection"] = b[59] != 0
	a["dischargeProtection"] = b[60] != 0
	a["cycles"] = u16(63)
	a["faultAlarm"] = int(b[65])
	a["powerTemp"] = int(b[73]) - 40
	a["equilibriumTemp"] = int(b[74]) - 40
	temps := min(int(b[72]), 7)
	for i := range temps {
		a[fmt.Sprintf("batteryTemp%d", i+1)] = int(b[75+i]) - 40
	}
	a["calibrationCapacity"] = float64(u16(82)) / 100
	a["dischargeCapacity"] = int64(binary.LittleEndian.Uint32(b[84:]))
	return pos, nil
}

// decodeBMSPairs decodes BS51, `<id hex>:<data hex>,...` pairs holding the
// big-endian data frames of a Daly BMS: 0x90 pack (total and gathered
// voltage dV, current dA offset by 30000, state of charge ‰), 0x91 highest
// and lowest cell (mV, cell number), 0x92 highest and lowest temperature
// (+40 °C, sensor number), 0x94 status (cell and sensor counts), 0x96 the
// sensors' temperatures (frame number, then 7 values +40 °C). Other
// frames (cell voltages, balance, faults) are skipped. Every value is one or
// more 8-byte frames.
func decodeBMSPairs(h header, now time.Time) (*model.Position, error) {
	pos := outdated(now)
	a := pos.Attributes
	sensors := -1 // unknown until 0x94
	for _, pair := range strings.Split(h.body, ",") {
		k, v, ok := strings.Cut(pair, ":")
		id, err1 := strconv.ParseUint(k, 16, 8)
		b, err2 := hex.DecodeString(v)
		if !ok || err1 != nil || err2 != nil || len(b) < 8 || len(b)%8 != 0 {
			return nil, invalid(h, "battery frame")
		}
		u16 := func(i int) int { return int(binary.BigEndian.Uint16(b[i:])) }
		switch id {
		case 0x90:
			a["cumulativeVoltage"] = float64(u16(0)) / 10
			a["gatherVoltage"] = float64(u16(2)) / 10
			a["current"] = float64(u16(4)-30000) / 10
			a["soc"] = float64(u16(6)) / 10
		case 0x91:
			a["maxCellVoltage"] = float64(u16(0)) / 1000
			a["maxCellVoltageCount"] = int(b[2])
			a["minCellVoltage"] = float64(u16(3)) / 1000
			a["minCellVoltageCount"] = int(b[5])
		case 0x92:
			a["maxTemp"] = int(b[0]) - 40
			a["maxTempCount"] = int(b[1])
			a["minTemp"] = int(b[2]) - 40
			a["minTempCount"] = int(b[3])
		case 0x94:
			sensors = int(b[1])
		case 0x96:
			// One 8-byte frame per 7 sensors.
			for f := 0; f < len(b); f += 8 {
				first := (int(b[f])-1)*7 + 1
				for i := range 7 {
					if n := first + i; n >= 1 && (sensors < 0 || n <= sensors) {
						a[fmt.Sprintf("cellTemp%d", n)] = int(b[f+1+i]) - 40
					}
				}
			}
		}
	}
	return pos, nil
}
