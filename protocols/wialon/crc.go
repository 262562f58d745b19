package wialon

import "strconv"

// crc16 is CRC-16/ARC (reflected polynomial 0xA001, initial value 0), the
// checksum of Wialon IPS 2.0 (the document's appendix).
func crc16(s string) uint16 {
	var crc uint16
	for i := range len(s) {
		crc ^= uint16(s[i])
		for range 8 {
			if crc&1 != 0 {
				crc = crc>>1 ^ 0xA001
			} else {
				crc >>= 1
			}
		}
	}
	return crc
}

// crcMatches reports whether field, hex as devices write it ("7A01", some
// "0x9b0"), is the CRC of data.
func crcMatches(data, field string) bool {
	if len(field) > 2 && (field[:2] == "0x" || field[:2] == "0X") {
		field = field[2:]
	}
	if field == "" || len(field) > 4 {
		return false
	}
	v, err := strconv.ParseUint(field, 16, 16)
	return err == nil && uint16(v) == crc16(data)
}
