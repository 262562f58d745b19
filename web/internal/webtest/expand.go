package webtest

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// placeholder is {name}, or {{name}} for the text {name} itself.
var placeholder = regexp.MustCompile(`\{\{[a-z0-9]+\}\}|\{[a-z0-9]+\}`)

// Expand replaces each {name} in s with the fixture id or the value of
// name, so that scenarios can name fixture objects whose ids the store
// assigns and values a hook obtained. An unknown name fails the test: it
// is a typo in the scenario, not a value to send. {{name}} stands for the
// text {name} (a map's tile URL template, say).
func (w *World) Expand(t testing.TB, s string) string {
	t.Helper()
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasPrefix(m, "{{") {
			return m[1 : len(m)-1]
		}
		name := m[1 : len(m)-1]
		if id, ok := w.IDs[name]; ok {
			return strconv.FormatInt(id, 10)
		}
		v, ok := w.Values[name]
		if !ok {
			t.Fatalf("unknown fixture name in %q", m)
		}
		return v
	})
}

func (w *World) expandAll(t testing.TB, fragments []string) []string {
	t.Helper()
	out := make([]string, len(fragments))
	for i, f := range fragments {
		out[i] = w.Expand(t, f)
	}
	return out
}
