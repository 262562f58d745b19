package main

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/config"
	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/v2"
)

// The example config and README.md document the config registry of the
// build: its keys with those of the protocols main passes in.

const (
	examplePath = "packaging/fleetd.example.yaml"
	readmePath  = "README.md"
)

var update = flag.Bool("update", false, "rewrite the generated tables in README.md")

// The example file documents every key, and only real keys, at its default.
func TestExampleFile(t *testing.T) {
	for _, kv := range os.Environ() { // the surrounding shell's settings
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, config.EnvPrefix) {
			t.Setenv(name, "") // restores the value after the test
			os.Unsetenv(name)
		}
	}
	r := registry()
	c, err := r.Load(examplePath)
	if err != nil {
		t.Fatalf("example does not load: %v", err)
	}
	if !reflect.DeepEqual(c, r.Default()) {
		t.Errorf("example values differ from the defaults:\n got %+v\nwant %+v", c, r.Default())
	}
	k := koanf.New(".")
	if err := k.Load(file.Provider(examplePath), yaml.Parser()); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, key := range r.Keys() {
		want = append(want, key.Name)
	}
	got := k.Keys()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("example keys differ from the registry:\n got %v\nwant %v", got, want)
	}
}

// README.md carries tables generated from the registry between marker
// comments; go test . -run README -update rewrites them.
func TestREADMETables(t *testing.T) {
	b, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, s := range []struct{ name, table string }{
		{"config-keys", keysTable()},
		{"ports", portsTable()},
	} {
		start, end := "<!-- "+s.name+":start -->\n", "<!-- "+s.name+":end -->"
		i, j := strings.Index(readme, start), strings.Index(readme, end)
		if i < 0 || j < i {
			t.Errorf("README lacks %q ... %q", start, end)
			continue
		}
		if current := readme[i+len(start) : j]; current != s.table {
			if !*update {
				t.Errorf("README %s table is out of date (run with -update); want:\n%s", s.name, s.table)
			}
			readme = readme[:i+len(start)] + s.table + readme[j:]
		}
	}
	if *update {
		if err := os.WriteFile(readmePath, []byte(readme), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func keysTable() string {
	var b strings.Builder
	b.WriteString("| Key | Environment variable | Default | Description |\n|---|---|---|---|\n")
	for _, k := range registry().Keys() {
		def := fmt.Sprintf("`%v`", k.Default)
		if k.Default == "" {
			def = "(empty)"
		}
		doc := k.Doc
		if k.Secret {
			doc += " Secret: printed as `***`."
		}
		fmt.Fprintf(&b, "| `%s` | `%s` | %s | %s |\n", k.Name, k.EnvVar(), def, doc)
	}
	return b.String()
}

func portsTable() string {
	var b strings.Builder
	b.WriteString("| Protocol | Default port | Port key |\n|---|---|---|\n")
	for _, p := range registry().Default().Protocols {
		fmt.Fprintf(&b, "| %s | %d | `protocols.%s.port` |\n", p.Name, p.Port, p.Name)
	}
	return b.String()
}
