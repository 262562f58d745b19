package ingest

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// Both condensed logs write one line per window however many writes fail,
// and say when writing works again.
func TestFailureLogCondenses(t *testing.T) {
	full := errors.New("no space left on device")
	for _, tc := range []struct {
		log  *failureLog
		want []string
	}{
		{newIngestFailures(), []string{
			`level=ERROR msg="positions not stored" positions=2 devices=1 over=0s`,
			`level=ERROR msg="positions not stored" positions=60 devices=3 over=29s`,
			`level=ERROR msg="positions not stored" positions=60 devices=3 over=29s`,
			`level=INFO msg="positions stored again" notStored=58 devices=3 over=29s`,
		}},
		{newStatusFailures(), []string{
			`level=ERROR msg="device status not saved" statuses=2 devices=1 over=0s`,
			`level=ERROR msg="device status not saved" statuses=60 devices=3 over=29s`,
			`level=ERROR msg="device status not saved" statuses=60 devices=3 over=29s`,
			`level=INFO msg="device status saved again" notSaved=58 devices=3 over=29s`,
		}},
	} {
		var buf bytes.Buffer
		log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{
			ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
				if a.Key == slog.TimeKey {
					return slog.Attr{}
				}
				return a
			}}))
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		clock := t0
		now := func() time.Time { return clock }
		// 90 failures of 2 items from 3 devices, one a second...
		for i := range 90 {
			clock = t0.Add(time.Duration(i) * time.Second)
			tc.log.note(log, now, int64(i%3), 2, full)
		}
		// ...then the writes succeed; successes alone log nothing more.
		for i := range 10 {
			clock = t0.Add(time.Duration(90+i) * time.Second)
			tc.log.note(log, now, int64(i%3), 2, nil)
		}
		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		if len(lines) != len(tc.want) {
			t.Fatalf("%s: %d lines, want %d:\n%s", tc.log.failed, len(lines), len(tc.want), buf.String())
		}
		for i, w := range tc.want {
			if !strings.HasPrefix(lines[i], w) {
				t.Errorf("%s: line %d\n got %s\nwant %s...", tc.log.failed, i, lines[i], w)
			}
		}
	}
}
