package gt06

// crcX25 is CRC-16/X-25: polynomial 0x1021 reflected (0x8408), initial value
// 0xFFFF, final XOR 0xFFFF. GT06 computes it from the length field through
// the serial number.
func crcX25(data []byte) uint16 {
	crc := uint16(0xFFFF)
	for _, b := range data {
		crc ^= uint16(b)
		for range 8 {
			if crc&1 != 0 {
				crc = crc>>1 ^ 0x8408
			} else {
				crc >>= 1
			}
		}
	}
	return ^crc
}
