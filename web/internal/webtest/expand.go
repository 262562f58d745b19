package webtest

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// placeholder is {name}, or {{name}} for the text {name} itself.
var placeholder = regexp.MustCompile(`\{\{[a-z0-9]+\}\}|\{([a-z0-9]+)\}`)

// Expand replaces each {name} in s with ids[name], so that scenarios can
// name fixture objects whose ids the store assigns. A name ids lacks fails
// the test: it is a typo in the scenario, not a value to send. {{name}}
// stands for the text {name} (a map's tile URL template, say).
func Expand(t testing.TB, ids map[string]int64, s string) string {
	t.Helper()
	return expand(t, s, func(name string) (string, bool) {
		id, ok := ids[name]
		return strconv.FormatInt(id, 10), ok
	})
}

// ExpandAll expands each of fragments, for a scenario's want and absent.
func ExpandAll(t testing.TB, ids map[string]int64, fragments []string) []string {
	t.Helper()
	out := make([]string, len(fragments))
	for i, f := range fragments {
		out[i] = Expand(t, ids, f)
	}
	return out
}

// expand replaces each {name} in s with what lookup has for name; a name
// it lacks fails the test.
func expand(t testing.TB, s string, lookup func(name string) (string, bool)) string {
	t.Helper()
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasPrefix(m, "{{") {
			return m[1 : len(m)-1]
		}
		v, ok := lookup(m[1 : len(m)-1])
		if !ok {
			t.Fatalf("unknown fixture name in %q", m)
		}
		return v
	})
}
