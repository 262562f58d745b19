package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/confmap"
	"github.com/knadh/koanf/providers/env"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/v2"
)

// Error lists every problem found in the configuration, so an operator
// fixes them in one round instead of one per start.
type Error struct {
	Problems []string
}

func (e *Error) Error() string {
	return "invalid configuration:\n  " + strings.Join(e.Problems, "\n  ")
}

// Default returns the configuration with every key at its default.
func (r *Registry) Default() *Config {
	c := &Config{}
	for _, k := range r.keys {
		_ = k.set(c, nil) // nil selects the default and cannot fail
	}
	return c
}

// Load builds the configuration from the defaults, the YAML file at path
// (none when path is empty) and FLEETD_* environment variables, later
// sources winning. Unknown keys, unknown FLEETD_* variables and invalid
// values are all reported in one *Error.
func (r *Registry) Load(path string) (*Config, error) {
	l := loader{r: r, k: koanf.New("."), origin: map[string]string{}}
	defaults := map[string]any{}
	for _, key := range r.keys {
		defaults[key.Name] = key.Default
	}
	if err := l.k.Load(confmap.Provider(defaults, "."), nil); err != nil {
		return nil, err
	}
	if path != "" {
		if err := l.loadFile(path); err != nil {
			return nil, err
		}
	}
	if err := l.loadEnv(); err != nil {
		return nil, err
	}
	cfg := &Config{}
	valid := true
	for _, key := range r.keys {
		if err := key.set(cfg, l.k.Get(key.Name)); err != nil {
			l.problems = append(l.problems, fmt.Sprintf("%s: %v%s", key.Name, err, l.origin[key.Name]))
			valid = false
		}
	}
	if valid { // invalid values leave zeroes that would look like conflicts
		l.problems = append(l.problems, cfg.conflicts()...)
		l.problems = append(l.problems, cfg.tlsProblems()...)
	}
	if len(l.problems) > 0 {
		return nil, &Error{Problems: l.problems}
	}
	return cfg, nil
}

type loader struct {
	r        *Registry
	k        *koanf.Koanf
	origin   map[string]string // key -> " (in FILE)" or " (from FLEETD_X)"
	problems []string
}

func (l *loader) loadFile(path string) error {
	fk := koanf.New(".")
	if err := fk.Load(file.Provider(path), yaml.Parser()); err != nil {
		return fmt.Errorf("config file: %w", err)
	}
	for _, name := range fk.Keys() {
		switch _, known := l.r.lookup(name); {
		case known:
			l.origin[name] = " (in " + path + ")"
		case !l.r.isEmptySection(name, fk.Get(name)):
			l.problems = append(l.problems, fmt.Sprintf("%s: unknown key in %s%s", name, path, l.r.suggest(name)))
		}
	}
	return l.k.Merge(fk)
}

func (l *loader) loadEnv() error {
	byVar := map[string]string{}
	for _, key := range l.r.keys {
		byVar[key.EnvVar()] = key.Name
	}
	var unknown []string
	ek := koanf.New(".")
	err := ek.Load(env.ProviderWithValue(EnvPrefix, ".", func(name, value string) (string, any) {
		key, known := byVar[name]
		switch {
		case name == EnvConfigFile:
			return "", nil
		case !known:
			unknown = append(unknown, name)
			return "", nil
		}
		l.origin[key] = " (from " + name + ")"
		return key, value
	}), nil)
	if err != nil {
		return err
	}
	slices.Sort(unknown)
	for _, name := range unknown {
		l.problems = append(l.problems, fmt.Sprintf("%s: unknown environment variable (no such config key)%s", name, l.r.suggestEnv(name)))
	}
	return l.k.Merge(ek)
}

// isEmptySection accepts "web:" with nothing under it, which YAML reads as
// null, when web is a real section.
func (r *Registry) isEmptySection(name string, v any) bool {
	if m, ok := v.(map[string]any); v != nil && (!ok || len(m) > 0) {
		return false
	}
	for _, k := range r.keys {
		if strings.HasPrefix(k.Name, name+".") {
			return true
		}
	}
	return false
}

// suggestEnv names the variable of a key that is one character away, for
// typos such as FLEETD_WEB_ADRESS.
func (r *Registry) suggestEnv(name string) string {
	for _, k := range r.keys {
		if nearlyEqual(k.EnvVar(), name) {
			return fmt.Sprintf(" (did you mean %s?)", k.EnvVar())
		}
	}
	return ""
}

// nearlyEqual reports whether a and b differ by one inserted, deleted or
// replaced byte.
func nearlyEqual(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a)-len(b) > 1 {
		return false
	}
	i := 0
	for i < len(b) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return i == len(a) || a[i+1:] == b[i+1:]
	}
	return a[i+1:] == b[i:]
}

// conflicts reports ports used twice: two listeners cannot share one.
func (c *Config) conflicts() []string {
	var problems []string
	used := map[int]string{}
	if p := addressPort(c.Web.Address); p != 0 {
		used[p] = "web.address"
	}
	for _, p := range c.Protocols {
		if !p.Enabled || p.Port == 0 { // 0 picks a free port: never a clash
			continue
		}
		key := "protocols." + p.Name + ".port"
		if other, taken := used[p.Port]; taken {
			problems = append(problems, fmt.Sprintf("%s: port %d is also used by %s", key, p.Port, other))
			continue
		}
		used[p.Port] = key
	}
	return problems
}
