package config

import "testing"

func TestLowFreeSpaceValues(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want int64
		ok   bool
	}{
		{1 << 30, 1 << 30, true},
		{int64(8 << 30), 8 << 30, true}, // past 2 GiB: YAML on a 32-bit build
		{" 5368709120 ", 5 << 30, true}, // from the environment
		{0, 0, false},
		{-1, 0, false},
		{"1GiB", 0, false},
		{1.5, 0, false},
	} {
		got, err := parseBytes(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseBytes(%#v) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
	cleanEnv(t, map[string]string{"FLEETD_DATA_LOWFREESPACE": "2147483648"})
	c, err := testRegistry.Load("")
	if err != nil || c.Data.LowFreeSpace != 2<<30 {
		t.Errorf("from the environment: %v, %v", c.Data.LowFreeSpace, err)
	}
}
