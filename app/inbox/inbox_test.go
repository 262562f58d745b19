package inbox

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

var admin = &model.User{Administrator: true}

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func seen(remote, uid string, device int64, data string) Seen {
	return Seen{Protocol: "gt06", Remote: remote, UniqueID: uid, DeviceID: device, Data: []byte(data), Problem: "checksum mismatch"}
}

func TestInboxBounds(t *testing.T) {
	tests := []struct {
		name  string
		opts  Options
		feed  func(b *Inbox, c *clock)
		query Filter
		want  []string // hex of the frames listed, newest first
	}{
		{"frames without a problem are not kept", Options{},
			func(b *Inbox, c *clock) { b.Tap(Seen{Protocol: "gt06", Remote: "1.2.3.4:5", Data: []byte("a")}) },
			Filter{}, nil},
		{"newest first, per device", Options{},
			func(b *Inbox, c *clock) {
				for i, s := range []Seen{seen("1.1.1.1:1", "x", 7, "a"), seen("1.1.1.2:1", "y", 8, "b"), seen("1.1.1.1:1", "x", 7, "c")} {
					c.t = c.t.Add(time.Duration(i) * time.Second)
					b.Tap(s)
				}
			},
			Filter{DeviceID: 7}, []string{"63", "61"}},
		{"a key keeps its last PerKey frames", Options{PerKey: 2},
			func(b *Inbox, c *clock) {
				for _, d := range []string{"a", "b", "c"} {
					c.t = c.t.Add(time.Second)
					b.Tap(seen("1.1.1.1:1", "", 7, d))
				}
			},
			Filter{}, []string{"63", "62"}},
		{"past Keys the key seen longest ago goes", Options{Keys: 2},
			func(b *Inbox, c *clock) {
				for i, uid := range []string{"u1", "u2", "u3"} {
					c.t = c.t.Add(time.Second)
					b.Tap(seen(fmt.Sprintf("1.1.1.%d:1", i), uid, 0, uid))
				}
			},
			Filter{}, []string{"7533", "7532"}},
		{"past Total the oldest frame of all goes", Options{Total: 2},
			func(b *Inbox, c *clock) {
				for i, d := range []string{"a", "b", "c"} {
					c.t = c.t.Add(time.Second)
					b.Tap(seen(fmt.Sprintf("1.1.1.%d:1", i), "", int64(i+1), d))
				}
			},
			Filter{}, []string{"63", "62"}},
		{"one frame per key, two in all", Options{PerKey: 1, Total: 2},
			func(b *Inbox, c *clock) {
				for _, d := range []string{"a", "b", "c"} {
					c.t = c.t.Add(time.Second)
					b.Tap(seen("1.1.1.1:1", "", 7, d))
				}
				c.t = c.t.Add(time.Second)
				b.Tap(seen("1.1.1.2:1", "", 8, "x"))
				c.t = c.t.Add(time.Second)
				b.Tap(seen("1.1.1.3:1", "", 9, "y"))
			},
			Filter{}, []string{"79", "78"}},
		{"forgotten frames leave room", Options{Total: 2},
			func(b *Inbox, c *clock) {
				for i, d := range []string{"a", "b", "c", "d"} {
					c.t = c.t.Add(time.Second)
					b.Tap(seen(fmt.Sprintf("1.1.1.%d:1", i), "", int64(i+1), d))
					if d == "b" {
						b.Forget(1, "")
					}
				}
			},
			Filter{}, []string{"64", "63"}},
		{"a source over its rate is refused", Options{PerSource: 2},
			func(b *Inbox, c *clock) {
				for i := range 4 {
					b.Tap(seen(fmt.Sprintf("9.9.9.9:%d", i), fmt.Sprint("u", i), 0, fmt.Sprint(i)))
				}
			},
			Filter{}, []string{"31", "30"}},
		{"frames past MaxAge are dropped", Options{MaxAge: time.Hour},
			func(b *Inbox, c *clock) {
				b.Tap(seen("1.1.1.1:1", "old", 0, "o"))
				c.t = c.t.Add(50 * time.Minute)
				b.Tap(seen("1.1.1.2:1", "new", 0, "n"))
				c.t = c.t.Add(20 * time.Minute)
			},
			Filter{}, []string{"6e"}},
		{"long frames keep their first MaxBytes", Options{MaxBytes: 3},
			func(b *Inbox, c *clock) { b.Tap(seen("1.1.1.1:1", "", 0, "abcdef")) },
			Filter{}, []string{"616263"}},
		{"frames without an id are grouped by address", Options{PerKey: 1},
			func(b *Inbox, c *clock) {
				b.Tap(seen("1.1.1.1:1", "", 0, "a"))
				c.t = c.t.Add(time.Second)
				b.Tap(seen("1.1.1.1:2", "", 0, "b"))
				c.t = c.t.Add(time.Second)
				b.Tap(seen("1.1.1.2:1", "", 0, "c"))
			},
			Filter{}, []string{"63", "62"}},
		{"limit", Options{},
			func(b *Inbox, c *clock) {
				for _, d := range []string{"a", "b", "c"} {
					c.t = c.t.Add(time.Second)
					b.Tap(seen("1.1.1.1:1", "", 0, d))
				}
			},
			Filter{Limit: 1}, []string{"63"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
			b := New(tt.opts, c.now)
			tt.feed(b, c)
			list, err := b.Frames(admin, tt.query)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range list {
				got = append(got, f.Hex)
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Fatalf("frames %v, want %v", got, tt.want)
			}
		})
	}
}

func TestInboxRecords(t *testing.T) {
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	b := New(Options{}, c.now)
	data := []byte{0x78, 0x78, 0x01}
	b.Tap(Seen{Protocol: "gt06", Remote: "10.0.0.1:4000", UniqueID: "123", DeviceID: 5, Data: data, Problem: "checksum mismatch"})
	data[0] = 0 // the listener reuses its buffer
	list, _ := b.Frames(admin, Filter{})
	want := Frame{Time: c.t, Protocol: "gt06", Remote: "10.0.0.1:4000", UniqueID: "123", DeviceID: 5,
		Reason: "checksum mismatch", Hex: "787801", Length: 3}
	if len(list) != 1 || list[0] != want {
		t.Fatalf("frames %+v, want %+v", list, want)
	}
	if _, err := b.Frames(&model.User{}, Filter{}); model.ClassOf(err) != model.ClassForbidden {
		t.Fatalf("a user's read: %v, want forbidden", err)
	}
	b.Tap(seen("10.0.0.2:1", "456", 0, "u"))
	if got := b.ForUnknown("456", 5); len(got) != 1 || got[0].Hex != "75" {
		t.Fatalf("ForUnknown = %+v", got)
	}
	b.Forget(5, "456")
	if list, _ := b.Frames(admin, Filter{}); len(list) != 0 {
		t.Fatalf("after Forget: %+v", list)
	}
	if kept, limited := b.Counts(); kept != 2 || limited != 0 {
		t.Fatalf("counts %d %d", kept, limited)
	}
}
