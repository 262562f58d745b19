package prototest

import (
	"bufio"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// recorder is a testing.TB that records failures instead of failing the
// test, so the helpers' own checks can be shown to fail. Fatal ends the
// calling goroutine, as it does in package testing.
type recorder struct {
	testing.TB
	failures []string
}

func (r *recorder) Helper() {}

func (r *recorder) Error(args ...any) { r.failures = append(r.failures, fmt.Sprint(args...)) }

func (r *recorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatal(args ...any) {
	r.Error(args...)
	runtime.Goexit()
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

// failures runs check against a recorder and returns what it reported.
func failures(t *testing.T, check func(tb testing.TB)) []string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(r)
	}()
	<-done
	return r.failures
}

// expectFailures fails t unless check reports a failure exactly when fail.
func expectFailures(t *testing.T, fail bool, check func(tb testing.TB)) {
	t.Helper()
	got := failures(t, check)
	if fail && len(got) == 0 {
		t.Error("the check passed; want a failure")
	}
	if !fail && len(got) != 0 {
		t.Errorf("the check failed: %q", got)
	}
}

// lineStream is a toy protocol: a frame is a line "lat,lon[,speed]" or
// "id:<uniqueId>"; commands are "<uniqueId>:<text>\n".
type lineStream struct {
	split     bufio.SplitFunc // nil: bufio.ScanLines
	encodeErr error           // returned by every Encode when set
}

func (lineStream) Name() string { return "line" }

func (s lineStream) Split(data []byte, atEOF bool) (int, []byte, error) {
	if s.split != nil {
		return s.split(data, atEOF)
	}
	return bufio.ScanLines(data, atEOF)
}

func (lineStream) Decode(_ *protocols.Conn, frame []byte) (protocols.Result, error) {
	if id, ok := strings.CutPrefix(string(frame), "id:"); ok {
		return protocols.Result{UniqueID: id, Reply: []byte("OK")}, nil
	}
	var v [3]float64
	fields := strings.Split(string(frame), ",")
	if len(fields) < 2 || len(fields) > 3 {
		return protocols.Result{}, model.Invalid("not a position")
	}
	for i, f := range fields {
		n, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return protocols.Result{}, model.Invalid("not a number")
		}
		v[i] = n
	}
	pos := &model.Position{Protocol: "line", Latitude: v[0], Longitude: v[1], Speed: v[2], Attributes: model.Attributes{}}
	return protocols.Result{Positions: []*model.Position{pos}}, nil
}

func (lineStream) CommandTypes() []string {
	return []string{"custom", "engineStop", "positionPeriodic"}
}

func (s lineStream) Encode(c *protocols.Conn, cmd *model.Command) ([]byte, error) {
	if s.encodeErr != nil {
		return nil, s.encodeErr
	}
	if c == nil || c.UniqueID == "" {
		return nil, model.Invalid("device unknown")
	}
	if cmd.Type == "positionPeriodic" {
		n, err := protocols.IntAttribute(cmd, "frequency")
		if err != nil {
			return nil, err
		}
		return []byte(c.UniqueID + ":every " + strconv.Itoa(n) + "\n"), nil
	}
	text, err := protocols.CommandText(cmd, map[string]string{"engineStop": "stop"})
	if err != nil {
		return nil, err
	}
	return []byte(c.UniqueID + ":" + text + "\n"), nil
}
