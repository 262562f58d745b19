package webtest

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that notes failures instead of failing, so
// that the helpers' own failures can be tested. Its Fatal ends the
// goroutine, as testing's does.
type recorder struct {
	testing.TB
	fatal  bool
	errors []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Error(args ...any) { r.Errorf("%s", fmt.Sprint(args...)) }

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	r.fatal = true
	runtime.Goexit()
}

func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

// record runs fn with a recorder on a goroutine of its own, so that a
// Fatal ends fn and not the test.
func record(t *testing.T, fn func(tb testing.TB)) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(r)
	}()
	<-done
	return r
}

// check fails t unless r failed (and fatally) as wanted, with messages
// holding each of fragments.
func (r *recorder) check(t *testing.T, wantFailed, wantFatal bool, fragments ...string) {
	t.Helper()
	if failed := len(r.errors) > 0; failed != wantFailed || r.fatal != wantFatal {
		t.Fatalf("failed %v fatal %v (%q), want failed %v fatal %v", failed, r.fatal, r.errors, wantFailed, wantFatal)
	}
	all := strings.Join(r.errors, "\n")
	for _, f := range fragments {
		if !strings.Contains(all, f) {
			t.Errorf("failure %q lacks %q", all, f)
		}
	}
}
