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

// parseMIMETypes takes type/subtype names, at least one.
func parseMIMETypes(v any) ([]string, error) {
	out, err := parseList(v, "MIME type", func(item string) (string, error) {
		typ, params, err := mime.ParseMediaType(item)
		if err != nil || len(params) > 0 || !strings.Contains(typ, "/") {
			return "", fmt.Errorf("%q is not a MIME type like image/jpeg", item)
		}
		return typ, nil
	})
	if err == nil && len(out) == 0 {
		err = fmt.Errorf("at least one MIME type is needed")
	}
	return out, err
}
