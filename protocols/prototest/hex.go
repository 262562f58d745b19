package prototest

import (
	"encoding/hex"
	"testing"
)

// Unhex decodes a hex fixture, failing t on a typo in it.
func Unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex fixture %q: %v", s, err)
	}
	return b
}

// UnhexStrings decodes hex frames into raw frames held in strings, the form
// SplitStream compares.
func UnhexStrings(t testing.TB, frames ...string) []string {
	t.Helper()
	out := make([]string, len(frames))
	for i, f := range frames {
		out[i] = string(Unhex(t, f))
	}
	return out
}
