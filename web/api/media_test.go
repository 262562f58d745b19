package api_test

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/web/internal/webtest"
)

// pngImage is a real 2x2 PNG.
func pngImage(t testing.TB) string {
	var b bytes.Buffer
	must(t, png.Encode(&b, image.NewGray(image.Rect(0, 0, 2, 2))))
	return b.String()
}

func TestDeviceImages(t *testing.T) {
	img := pngImage(t)
	upload := func(as string) func(*testing.T, *env) {
		return func(t *testing.T, e *env) {
			r := e.Send(t, as, e.Request(t, "POST", "/api/devices/{d1}/image", "image/png", img))
			if r.Status != 200 || r.Body != "device.png" {
				t.Fatalf("upload: %d %s", r.Status, r.Body)
			}
		}
	}
	gone := func(path string) func(*testing.T, *env, *webtest.Response) {
		return func(t *testing.T, e *env, _ *webtest.Response) {
			if r := e.Call(t, "admin", "GET", path, ""); r.Status != 404 {
				t.Errorf("GET %s after: %d", path, r.Status)
			}
		}
	}
	run(t, []scenario{
		{Name: "upload answers Traccar's file name", As: "user1", Method: "POST", Path: "/api/devices/{d1}/image",
			ContentType: "image/png", Body: img, Status: 200, Want: []string{"device.png"}},
		{Name: "the owner reads it with its type", As: "user1", Method: "GET", Path: "/api/media/100000000000001/device.png",
			Before: upload("user1"), Status: 200,
			After: func(t *testing.T, e *env, r *webtest.Response) {
				if r.Body != img || r.Header.Get("Content-Type") != "image/png" || r.Header.Get("X-Content-Type-Options") != "nosniff" {
					t.Errorf("got %d bytes, %q, %q", len(r.Body), r.Header.Get("Content-Type"), r.Header.Get("X-Content-Type-Options"))
				}
			}},
		{Name: "another user does not see it", As: "user2", Method: "GET", Path: "/api/media/100000000000001/device.png",
			Before: upload("admin"), Status: 404},
		{Name: "anonymous callers neither", Method: "GET", Path: "/api/media/100000000000001/device.png",
			Before: upload("admin"), Status: 401},
		{Name: "an unknown uniqueId", As: "admin", Method: "GET", Path: "/api/media/999/device.png", Status: 404},
		{Name: "another user cannot upload", As: "user2", Method: "POST", Path: "/api/devices/{d1}/image",
			ContentType: "image/png", Body: img, Status: 404, Unchanged: true},
		{Name: "read-only devices", As: "user1", Method: "POST", Path: "/api/devices/{d1}/image",
			Before:      func(t *testing.T, e *env) { e.Call(t, "admin", "PUT", "/api/server", `{"deviceReadonly":true}`) },
			ContentType: "image/png", Body: img, Status: 403},
		{Name: "a type Traccar does not take", As: "user1", Method: "POST", Path: "/api/devices/{d1}/image",
			ContentType: "image/svg+xml", Body: `<svg xmlns="http://www.w3.org/2000/svg"/>`, Status: 400,
			Want: []string{"unsupported image type"}, Unchanged: true},
		{Name: "bytes that are not the declared image", As: "user1", Method: "POST", Path: "/api/devices/{d1}/image",
			ContentType: "image/png", Body: "<html><script>alert(1)</script></html>", Status: 400,
			Want: []string{"not a png image"}, Unchanged: true},
		{Name: "over Traccar's 500,000 bytes", As: "user1", Method: "POST", Path: "/api/devices/{d1}/image",
			ContentType: "image/png", Body: img + strings.Repeat("\x00", 500_000), Status: 400, Unchanged: true},
		{Name: "a new image replaces the old, whatever its type", As: "user1", Method: "GET", Path: "/api/media/100000000000001/device.png",
			Before: func(t *testing.T, e *env) {
				upload("user1")(t, e)
				gif := "GIF89a\x01\x00\x01\x00\x00\x00\x00;"
				r := e.Send(t, "user1", e.Request(t, "POST", "/api/devices/{d1}/image", "image/gif", gif))
				if r.Status != 200 || r.Body != "device.gif" {
					t.Fatalf("gif upload: %d %s", r.Status, r.Body)
				}
			}, Status: 404},
		{Name: "the image goes with its device", As: "admin", Method: "DELETE", Path: "/api/devices/{d1}",
			Before: upload("admin"), Status: 204, After: func(t *testing.T, e *env, r *webtest.Response) {
				// A new device with the same uniqueId does not inherit it.
				e.Call(t, "admin", "POST", "/api/devices", `{"name":"New","uniqueId":"100000000000001"}`)
				gone("/api/media/100000000000001/device.png")(t, e, r)
			}},
	})
}

func TestWebFiles(t *testing.T) {
	run(t, []scenario{
		{Name: "an administrator uploads", As: "admin", Method: "POST", Path: "/api/server/file/brand/logo.svg",
			ContentType: "application/octet-stream", Body: `<svg xmlns="http://www.w3.org/2000/svg"/>`, Status: 204,
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				r := e.Call(t, "", "GET", "/api/server/file/brand/logo.svg", "")
				if r.Status != 200 || r.Header.Get("Content-Type") != "image/svg+xml" ||
					!strings.Contains(r.Header.Get("Content-Security-Policy"), "sandbox") || !strings.Contains(r.Body, "<svg") {
					t.Errorf("anonymous read: %d %v %s", r.Status, r.Header, r.Body)
				}
			}},
		{Name: "a manager may not", As: "manager1", Method: "POST", Path: "/api/server/file/logo.png",
			ContentType: "image/png", Body: "x", Status: 403, Unchanged: true},
		{Name: "nor anonymous callers", Method: "POST", Path: "/api/server/file/logo.png",
			ContentType: "image/png", Body: "x", Status: 401, Unchanged: true},
		{Name: "no way out of the files", As: "admin", Method: "POST", Path: "/api/server/file/a/..%2F..%2Fetc",
			ContentType: "text/plain", Body: "x", Status: 400, Unchanged: true},
		{Name: "dot segments are refused", As: "admin", Method: "POST", Path: "/api/server/file/./logo.png",
			ContentType: "text/plain", Body: "x", Status: 400, Unchanged: true},
		{Name: "a file never uploaded", Method: "GET", Path: "/api/server/file/logo.png", Status: 404},
	})
}

func TestRebootAsksForARestart(t *testing.T) {
	run(t, []scenario{
		{Name: "a user may not", As: "user1", Method: "POST", Path: "/api/server/reboot", Status: 403,
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				select {
				case <-e.Core.Ops.RestartRequested():
					t.Error("restart requested")
				default:
				}
			}},
		{Name: "an administrator may", As: "admin", Method: "POST", Path: "/api/server/reboot", Status: 204,
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				select {
				case <-e.Core.Ops.RestartRequested():
				case <-time.After(time.Second):
					t.Error("no restart requested")
				}
			}},
	})
}
