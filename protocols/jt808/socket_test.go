package jt808

import (
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
	"github.com/fleetd/fleetd/protocols/sockettest"
)

// TestSocket sends every shared frame as wire bytes through a real TCP
// listener in front of a real store: each device on its own connection,
// opened (where a model changes the layout) with a heartbeat so the
// listener knows the device and its model; the replies are read back and
// the stored positions compared.
func TestSocket(t *testing.T) {
	p := &Protocol{now: prototest.Clock}
	env := sockettest.Start(t, p)
	conns := map[string]*sockettest.Conn{}
	stored := map[string]int{}
	for _, tc := range sharedFrames {
		wire := prototest.Unhex(t, tc.wire)
		id := tc.want.UniqueID
		c := conns[id]
		if c == nil {
			env.Device(id, tc.model, nil)
			c = env.Dial()
			conns[id] = c
			if tc.model != "" {
				hb := message(msgHeartbeat, -1, terminalOf(t, wire), false, nil)
				c.Send(hb)
				c.Expect(message(msgGeneralResponse, -1, terminalOf(t, wire), false, []byte{0, 0, 0, 2, 0}))
			}
		}
		c.Send(wire)
		if reply := tc.want.Reply + tc.want.Ack; reply != "" {
			c.Expect([]byte(reply))
		}
		if len(tc.want.Positions) == 0 {
			continue
		}
		stored[id] += len(tc.want.Positions)
		d, err := env.Core.Ingest.Registered(id)
		if err != nil {
			t.Fatal(err)
		}
		got := env.WaitStored(d.ID, stored[id])
		got = got[len(got)-len(tc.want.Positions):]
		for i, w := range tc.want.Positions {
			want := sockettest.Want{Time: w.Time, Valid: w.Valid, Outdated: w.Outdated, Lat: w.Lat, Lon: w.Lon,
				Speed: w.Speed, Course: w.Course, Attributes: w.Attributes, SpeedTolerance: 1e-6}
			sockettest.Check(t, got[i], want)
		}
	}
}

// terminalOf is the terminal id of a wire frame.
func terminalOf(t *testing.T, wire []byte) []byte {
	t.Helper()
	u, err := unescape(wire)
	if err != nil {
		t.Fatal(err)
	}
	h, err := parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return h.terminal
}
