package model

// Numeric reads any Go number a decoder or JSON may have put in an
// attribute.
func Numeric(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int8:
		return float64(x), true
	case int16:
		return float64(x), true
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint:
		return float64(x), true
	case uint8:
		return float64(x), true
	case uint16:
		return float64(x), true
	case uint32:
		return float64(x), true
	case uint64:
		return float64(x), true
	}
	return 0, false
}

// Number reads a numeric attribute whatever JSON or a decoder made of it.
func Number(v any) float64 {
	f, _ := Numeric(v)
	return f
}

// FirstError is the first of errs that is not nil: the error of the first
// step that failed when a caller runs several regardless.
func FirstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
