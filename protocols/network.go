package protocols

// Network is Traccar's network object of a position, as the listeners
// store it: the cell towers and Wi-Fi access points a device heard (for
// geolocation by cell), nil when it heard neither.
func Network(towers, accessPoints []map[string]any) map[string]any {
	if len(towers) == 0 && len(accessPoints) == 0 {
		return nil
	}
	n := map[string]any{"radioType": "gsm", "considerIp": false}
	if len(towers) > 0 {
		n["cellTowers"] = towers
	}
	if len(accessPoints) > 0 {
		n["wifiAccessPoints"] = accessPoints
	}
	return n
}
