package dashboard_test

import (
	"bytes"
	"image"
	"image/jpeg"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// sendFiles stores a photo (a real 8x8 JPEG) and a voice message from
// device key, as a watch's would be, and returns their contents and names.
func sendFiles(t testing.TB, e *env, key string) (photo, voice string, names []string) {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, 8, 8)), nil); err != nil {
		t.Fatal(err)
	}
	photo, voice = b.String(), "#!AMR\n\x3c\x48\xf5"
	for _, m := range []*model.Media{
		{Key: model.MediaImage, Ext: "jpg", Type: "image/jpeg", Data: []byte(photo)},
		{Key: model.MediaAudio, Ext: "amr", Type: "audio/amr", Data: []byte(voice)},
	} {
		p := &model.Position{Protocol: "watch", Outdated: true, FixTime: e.now.Add(-time.Minute), DeviceTime: e.now.Add(-time.Minute),
			Attributes: model.Attributes{}, Media: m}
		if err := e.Core.Ingest.Ingest(e.IDs[key], []*model.Position{p}); err != nil {
			t.Fatal(err)
		}
		names = append(names, p.Attributes[m.Key].(string))
	}
	return photo, voice, names
}

// The vehicle page shows the photos and voice messages a device sent in
// the range, and serves them to those who see the device only.
func TestVehicleFiles(t *testing.T) {
	e := newEnv(t)
	photo, voice, names := sendFiles(t, e, "van3")
	van3 := "/dashboard/fleet/devices/" + itoa(e.IDs["van3"])
	page := e.as("manager").get(van3)
	webtest.Contains(t, "vehicle page", page.Body, "Photos and voice messages",
		`<img src="`+van3+`/files/`+names[0]+`" loading="lazy" alt="Photo from Van Three, `,
		`href="`+van3+`/files/`+names[1]+`" download>Voice message, 9 B</a>`)
	for _, f := range []struct{ name, typ, disposition, body string }{
		{names[0], "image/jpeg", "inline", photo},
		{names[1], "audio/amr", "attachment", voice},
	} {
		res := e.as("manager").get(van3 + "/files/" + f.name)
		if res.Status != 200 || res.Header.Get("Content-Type") != f.typ || res.Body != f.body ||
			!strings.HasPrefix(res.Header.Get("Content-Disposition"), f.disposition) || res.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: %d %q %q, %d bytes", f.name, res.Status, res.Header.Get("Content-Type"), res.Header.Get("Content-Disposition"), len(res.Body))
		}
		// A vehicle the manager does not see has no files for them, and a
		// plain user's dashboard is their profile.
		if res := e.as("manager").get("/dashboard/fleet/devices/" + itoa(e.IDs["truck1"]) + "/files/" + f.name); res.Status != 404 {
			t.Errorf("%s under a vehicle the manager does not see: %d", f.name, res.Status)
		}
		if res := e.as("driver1").get(van3 + "/files/" + f.name); res.Status != 403 {
			t.Errorf("%s for a plain user: %d", f.name, res.Status)
		}
	}
	if res := e.as("manager").get(van3 + "/files/nothing.jpg"); res.Status != 404 {
		t.Errorf("a file that is not there: %d", res.Status)
	}
	// Another day, and a vehicle that sent nothing, show no card.
	webtest.Lacks(t, "another day", e.as("manager").get(van3+"?from=2024-01-02&to=2024-01-02").Body, "Photos and voice messages")
	webtest.Lacks(t, "truck1", e.as("admin").get("/dashboard/fleet/devices/"+itoa(e.IDs["truck1"])).Body, "Photos and voice messages")
}
