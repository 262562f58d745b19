package traccarimport

import "time"

// QuickRetries makes the tests' retries wait a millisecond, not seconds.
func QuickRetries(o *Options) { o.retryWait = time.Millisecond }
