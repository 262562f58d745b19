package httpx

import (
	"encoding/json"
	"reflect"
	"time"
)

// JSONEncoder is the Fiber JSON encoder for every response. Before encoding
// it normalises the value so clients see one form everywhere: times in UTC
// (RFC 3339), empty lists as [] and empty maps as {}, never null.
func JSONEncoder(v any) ([]byte, error) {
	if v == nil {
		return json.Marshal(v)
	}
	rv := reflect.ValueOf(v)
	cp := reflect.New(rv.Type()).Elem()
	cp.Set(rv)
	normalize(cp)
	return json.Marshal(cp.Interface())
}

var timeType = reflect.TypeFor[time.Time]()

// normalize rewrites v (addressable) in place. Response values are built per
// request, so changing them is safe.
func normalize(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			normalize(v.Elem())
		}
	case reflect.Interface:
		if !v.IsNil() && v.Elem().Kind() == reflect.Pointer {
			normalize(v.Elem())
		}
	case reflect.Struct:
		if !v.CanAddr() {
			return
		}
		if v.Type() == timeType {
			if t, ok := v.Addr().Interface().(*time.Time); ok && !t.IsZero() {
				*t = t.UTC()
			}
			return
		}
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				normalize(f)
			}
		}
	case reflect.Slice:
		if v.IsNil() && v.CanSet() && v.Type().Elem().Kind() != reflect.Uint8 {
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		}
		for i := range v.Len() {
			normalize(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() && v.CanSet() {
			v.Set(reflect.MakeMap(v.Type()))
		}
		// Map values are not addressable; what they point to is.
		if k := v.Type().Elem().Kind(); k == reflect.Pointer || k == reflect.Interface {
			for it := v.MapRange(); it.Next(); {
				normalize(it.Value())
			}
		}
	}
}
