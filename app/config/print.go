package config

import (
	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/confmap"
	"github.com/knadh/koanf/v2"
)

// Values returns every key's effective value in c in its YAML form, with
// set secrets replaced by Redacted (an empty secret stays empty: that it is
// unset is no secret, and "***" would suggest one is configured).
func (r *Registry) Values(c *Config) map[string]any {
	out := make(map[string]any, len(r.keys))
	for _, k := range r.keys {
		v := k.get(c)
		if k.Secret && v != "" {
			v = Redacted
		}
		out[k.Name] = v
	}
	return out
}

// YAML renders Values(c) as a YAML document of nested sections.
func (r *Registry) YAML(c *Config) ([]byte, error) {
	k := koanf.New(".")
	if err := k.Load(confmap.Provider(r.Values(c), "."), nil); err != nil {
		return nil, err
	}
	return k.Marshal(yaml.Parser())
}
