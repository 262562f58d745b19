package watch

import (
	"strconv"
	"strings"
)

// network reads "cells,ta,mcc,mnc,(lac,cid,rssi)×cells,wifis,(name,mac,rssi)×wifis"
// (no ta, mcc and mnc when there are no cells) into Traccar's network
// shape. Returns nil when there is nothing or the values are malformed: the
// position is still worth keeping.
func network(v []string) map[string]any {
	if len(v) == 0 {
		return nil
	}
	cellCount, err := strconv.Atoi(v[0])
	if err != nil || cellCount < 0 || cellCount > len(v) || cellCount > 0 && len(v) < 4+3*cellCount {
		return nil
	}
	// Some firmwares put other data here (Traccar skips it when the MNC has
	// hex letters); without cells the fourth value is a Wi-Fi MAC address.
	if cellCount > 0 && hasHexLetter(v[3]) {
		return nil
	}
	var cells, wifis []map[string]any
	i := 1
	if cellCount > 0 {
		mcc, _ := strconv.Atoi(v[2])
		mnc, _ := strconv.Atoi(v[3])
		for i = 4; i < 4+3*cellCount; i += 3 {
			lac, ok1 := number(v[i])
			cid, ok2 := number(v[i+1])
			if !ok1 || !ok2 {
				return nil
			}
			c := map[string]any{"mobileCountryCode": mcc, "mobileNetworkCode": mnc, "locationAreaCode": lac, "cellId": cid}
			if rssi, err := strconv.Atoi(v[i+2]); err == nil {
				c["signalStrength"] = rssi
			}
			cells = append(cells, c)
		}
	}
	if i < len(v) {
		wifiCount, _ := strconv.Atoi(v[i])
		wifiCount = min(wifiCount, len(v))
		for j := i + 1; j+3 <= len(v) && j < i+1+3*wifiCount; j += 3 {
			mac := v[j+1] // v[j] is the network name
			rssi, err := strconv.Atoi(v[j+2])
			if mac != "" && mac != "0" && err == nil {
				wifis = append(wifis, map[string]any{"macAddress": mac, "signalStrength": rssi})
			}
		}
	}
	if cells == nil && wifis == nil {
		return nil
	}
	n := map[string]any{"radioType": "gsm", "considerIp": false}
	if cells != nil {
		n["cellTowers"] = cells
	}
	if wifis != nil {
		n["wifiAccessPoints"] = wifis
	}
	return n
}

func hasHexLetter(s string) bool {
	return strings.ContainsAny(s, "abcdefABCDEF")
}

// number parses a LAC or CID, sent in hex when it has hex letters.
func number(s string) (int, bool) {
	base := 10
	if hasHexLetter(s) {
		base = 16
	}
	v, err := strconv.ParseInt(s, base, 32)
	return int(v), err == nil && v >= 0
}
