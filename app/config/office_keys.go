package config

import (
	"fmt"
	"mime"
	"path/filepath"
	"strings"
)

// Files bounds uploads (attachments of tickets, documents and service records).
type Files struct {
	MaxSize int
	Types   []string
}

// Documents configures vehicle and driver documents.
type Documents struct {
	ExpiringDays int
}

// Maintenance is the service interval: a vehicle is due IntervalDays
// after its last service or IntervalKm beyond its odometer then.
type Maintenance struct {
	IntervalDays int
	IntervalKm   int
}

// FilesDir is where uploaded files are stored.
func (d Data) FilesDir() string { return filepath.Join(d.Dir, "files") }

var defaultFileTypes = []string{"image/jpeg", "image/png", "image/webp", "image/heic", "application/pdf"}

// officeKeys configure the fleet office (spec F, G, L).
func officeKeys() []Key {
	return []Key{
		field("files.maxSize", 10<<20, "Largest upload in bytes (ticket, document and service record attachments, stored under data.dir/files).",
			parseIntIn(1024, 1<<30), func(c *Config) *int { return &c.Files.MaxSize }, asIs[int]),
		field("files.types", defaultFileTypes, "MIME types uploads may have, comma-separated.",
			parseMIMETypes, func(c *Config) *[]string { return &c.Files.Types }, joinComma),
		field("documents.expiringDays", 30, "A document whose status is computed is \"expiring\" this many days before its expiry date.",
			parseIntIn(1, 366), func(c *Config) *int { return &c.Documents.ExpiringDays }, asIs[int]),
		field("maintenance.intervalDays", 180, "A vehicle is due for service this many days after its last service record.",
			parseIntIn(1, 3660), func(c *Config) *int { return &c.Maintenance.IntervalDays }, asIs[int]),
		field("maintenance.intervalKm", 10000, "A vehicle is due for service this many km beyond the odometer of its last service record.",
			parseIntIn(1, 1_000_000), func(c *Config) *int { return &c.Maintenance.IntervalKm }, asIs[int]),
	}
}

func joinComma(s []string) any { return strings.Join(s, ",") }

// parseMIMETypes takes a comma-separated string (environment, YAML) or a
// YAML list of type/subtype names.
func parseMIMETypes(v any) ([]string, error) {
	var items []string
	switch x := v.(type) {
	case string:
		items = strings.Split(x, ",")
	case []any:
		for _, item := range x {
			s, ok := item.(string)
			if !ok {
				return nil, fmt.Errorf("%v is not a MIME type", item)
			}
			items = append(items, s)
		}
	default:
		return nil, fmt.Errorf("%v is not a list of MIME types", v)
	}
	var out []string
	for _, item := range items {
		typ, params, err := mime.ParseMediaType(strings.TrimSpace(item))
		if err != nil || len(params) > 0 || !strings.Contains(typ, "/") {
			return nil, fmt.Errorf("%q is not a MIME type like image/jpeg", strings.TrimSpace(item))
		}
		out = append(out, typ)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("at least one MIME type is needed")
	}
	return out, nil
}
