package prototest

import "time"

// Now is the fixed server clock of decoder tests: frames without a time of
// their own are stamped with it.
var Now = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

// Clock returns Now; protocols take it in place of time.Now.
func Clock() time.Time { return Now }
