package watch

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/sockettest"
)

// A voice message and a photo through a real listener and store: each is
// answered as the watch expects only once stored, and its file is what
// the media API serves under the name in the position's attribute.
func TestSocketMedia(t *testing.T) {
	e := sockettest.Start(t, New())
	d := e.Device("1234567890", "", nil)
	c := e.Dial()
	c.Send([]byte(frameTK))
	c.Expect([]byte("[CS*1234567890*0004*TK,1]"))
	photo := "\xff\xd8\xff\xe0\x00\x10JFIF\xff\xd9"
	c.Send(frame("CS", "1234567890", "", "img,5,160429110950,"+photo))
	c.Silent(100 * time.Millisecond)

	ps := e.WaitStored(d.ID, 2)
	for i, want := range []struct {
		key, typ, data string
	}{
		{"audio", "audio/amr", "#!AMR}[],*\xff"},
		{"image", "image/jpeg", photo},
	} {
		name, _ := ps[i].Attributes[want.key].(string)
		b, err := e.Core.Fleet.Media(model.System(), "1234567890", name)
		if err != nil || b.Type != want.typ || !bytes.Equal(b.Data, []byte(want.data)) {
			t.Errorf("position %d: %s %q: %+v, %v", i, want.key, name, b, err)
		}
	}
}

// A chunked voice message through a real listener on a connection that
// has named its watch (LK first, as watches do): it is stored whole; the
// start of another message is given up when the connection ends.
func TestSocketVoiceChunks(t *testing.T) {
	base := protocols.MediaHeld()
	e := sockettest.Start(t, New())
	d := e.Device("1234567890", "", nil)
	c := e.Dial()
	c.Send([]byte("[CS*1234567890*0002*LK]"))
	c.Expect([]byte("[CS*1234567890*0002*LK]"))
	for n, audio := range []string{"#!AMR\n", "\x3c\x48"} {
		c.Send(frame("CS", "1234567890", "", fmt.Sprintf("JXTK,0,m1,%d,2,%s", n+1, audio)))
		c.Expect([]byte("[CS*1234567890*0007*JXTKR,1]"))
	}
	ps := e.WaitStored(d.ID, 1)
	name, _ := ps[0].Attributes["audio"].(string)
	if b, err := e.Core.Fleet.Media(model.System(), "1234567890", name); err != nil || string(b.Data) != "#!AMR\n\x3c\x48" {
		t.Fatalf("audio %q: %+v, %v", name, b, err)
	}
	c.Send(frame("CS", "1234567890", "", "JXTK,0,m2,1,2,#!AMR\n"))
	c.Expect([]byte("[CS*1234567890*0007*JXTKR,1]"))
	if held := protocols.MediaHeld() - base; held != 6 {
		t.Errorf("the unfinished message holds %d bytes, want 6", held)
	}
	c.Close()
	for deadline := time.Now().Add(5 * time.Second); protocols.MediaHeld() != base; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d bytes still held after the connection closed", protocols.MediaHeld()-base)
		}
	}
}
