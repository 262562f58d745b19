package config

import (
	"fmt"
	"strconv"
	"strings"
)

// storeKeys configure how fleetd watches the data directory's disk.
func storeKeys() []Key {
	return []Key{
		field("data.lowFreeSpace", int64(1<<30), "Bytes free on data.dir's file system below which the dashboard warns administrators (GET /metrics: fleetd_data_free_bytes).",
			parseBytes, func(c *Config) *int64 { return &c.Data.LowFreeSpace }, asIs[int64]),
	}
}

// parseBytes takes a positive number of bytes; int64, so that 32-bit
// builds take sizes past 2 GiB.
func parseBytes(v any) (int64, error) {
	var n int64
	var err error
	switch x := v.(type) {
	case int:
		n = int64(x)
	case int64:
		n = x
	case string:
		n, err = strconv.ParseInt(strings.TrimSpace(x), 10, 64)
	default:
		err = strconv.ErrSyntax
	}
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q is not a positive number of bytes", fmt.Sprint(v))
	}
	return n, nil
}
