package model

import "time"

// SetDefault gives an option left at zero (or set below it) its default.
func SetDefault[T int | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}
