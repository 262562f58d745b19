package h02

// cell is one cell tower in Traccar's network JSON shape; mcc and mnc are
// left out when the frame does not carry them (negative), rssi when absent
// (nil).
func cell(mcc, mnc, lac, cid int, rssi *int) map[string]any {
	c := map[string]any{"locationAreaCode": lac, "cellId": cid}
	if mcc >= 0 {
		c["mobileCountryCode"] = mcc
		c["mobileNetworkCode"] = mnc
	}
	if rssi != nil {
		c["signalStrength"] = *rssi
	}
	return c
}

// network wraps cell towers as Traccar's Position.network.
func network(cells []map[string]any) map[string]any {
	return map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": cells}
}
