package watch

import (
	"bytes"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
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
