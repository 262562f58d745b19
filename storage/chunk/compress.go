package chunk

// compress returns the chunk b, whose body starts at bodyAt after its
// flag byte (0: raw).
func compress(b []byte, bodyAt int) []byte { return b }

// decompress returns the body after its flag byte.
func decompress(b []byte) ([]byte, error) {
	if len(b) == 0 || b[0] != 0 {
		return nil, corrupt("body flag")
	}
	return b[1:], nil
}
