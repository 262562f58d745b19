package osmand

import (
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/model"
)

// network collects cell= and wifi= parameters into Traccar's network object.
type network struct {
	cells, wifi []any
}

// addCell parses `mcc,mnc,lac,cid[,rssi]`.
func (n *network) addCell(s string) error {
	parts := strings.Split(s, ",")
	if len(parts) < 4 || len(parts) > 5 {
		return model.Invalid("osmand: bad cell %.40q", s)
	}
	keys := []string{"mobileCountryCode", "mobileNetworkCode", "locationAreaCode", "cellId", "signalStrength"}
	tower := map[string]any{}
	for i, p := range parts {
		v, err := strconv.ParseInt(strings.TrimSpace(p), 10, 32)
		if err != nil {
			return model.Invalid("osmand: bad cell %.40q", s)
		}
		tower[keys[i]] = v
	}
	n.cells = append(n.cells, tower)
	return nil
}

// addWifi parses `mac,rssi`; the MAC may use '-' separators.
func (n *network) addWifi(s string) error {
	mac, rssi, ok := strings.Cut(s, ",")
	v, err := strconv.ParseInt(strings.TrimSpace(rssi), 10, 32)
	if !ok || err != nil || mac == "" {
		return model.Invalid("osmand: bad wifi %.40q", s)
	}
	n.wifi = append(n.wifi, map[string]any{"macAddress": strings.ReplaceAll(mac, "-", ":"), "signalStrength": v})
	return nil
}

// value returns the network object, or nil when nothing was collected.
func (n *network) value() any {
	if n.cells == nil && n.wifi == nil {
		return nil
	}
	v := map[string]any{"radioType": "gsm", "considerIp": false}
	if n.cells != nil {
		v["cellTowers"] = n.cells
	}
	if n.wifi != nil {
		v["wifiAccessPoints"] = n.wifi
	}
	return v
}
