package teltonika

// crc16IBM is CRC-16/ARC ("IBM"): polynomial 0x8005 reflected (0xA001),
// initial value 0, no final XOR. Teltonika computes it from the codec byte
// through the closing record count.
func crc16IBM(data []byte) uint16 {
	var crc uint16
	for _, b := range data {
		crc ^= uint16(b)
		for range 8 {
			carry := crc & 1
			crc >>= 1
			if carry != 0 {
				crc ^= 0xA001
			}
		}
	}
	return crc
}
