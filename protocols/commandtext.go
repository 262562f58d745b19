package protocols

import (
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/fleetd/fleetd/app/model"
)

// CommandData returns a command's attributes.data, which carries the text
// of "custom" (and some typed) commands; it must be a non-empty string.
func CommandData(cmd *model.Command) (string, error) {
	if cmd == nil {
		return "", model.Invalid("no command")
	}
	data, ok := cmd.Attributes["data"].(string)
	if !ok || data == "" {
		return "", model.Invalid("%s command needs text in attributes.data", cmd.Type)
	}
	return data, nil
}

// CommandText returns the text a device is sent for cmd: attributes.data
// for "custom", otherwise texts[cmd.Type]. Any other type is invalid.
func CommandText(cmd *model.Command, texts map[string]string) (string, error) {
	if cmd == nil {
		return "", model.Invalid("no command")
	}
	if cmd.Type == "custom" {
		return CommandData(cmd)
	}
	if text, ok := texts[cmd.Type]; ok {
		return text, nil
	}
	return "", model.Invalid("command %q is not supported by this device protocol", cmd.Type)
}

// CommandTypes lists what an encoder built on CommandText supports:
// "custom", then extra (types the encoder builds itself), then the types of
// texts in name order.
func CommandTypes(texts map[string]string, extra ...string) []string {
	types := append([]string{"custom"}, extra...)
	return append(types, slices.Sorted(maps.Keys(texts))...)
}

// maxExactInt is the largest whole float64 that JSON numbers hold exactly.
const maxExactInt = 1 << 53

// IntAttribute reads a whole-number command attribute. Commands decoded
// from JSON hold float64; commands built in Go hold int or int64; clients
// also send numbers as strings. Callers check the range they allow.
func IntAttribute(cmd *model.Command, key string) (int, error) {
	if cmd == nil {
		return 0, model.Invalid("no command")
	}
	v, ok := cmd.Attributes[key]
	if !ok || v == nil {
		return 0, model.Invalid("%s command needs attributes.%s", cmd.Type, key)
	}
	switch x := v.(type) {
	case float64:
		if x == math.Trunc(x) && math.Abs(x) <= maxExactInt {
			return int(x), nil
		}
	case int:
		return x, nil
	case int64:
		if x >= math.MinInt && x <= math.MaxInt {
			return int(x), nil
		}
	case string:
		if n, err := strconv.Atoi(x); err == nil {
			return n, nil
		}
	}
	return 0, model.Invalid("%s command: attributes.%s must be a whole number, got %v", cmd.Type, key, v)
}
