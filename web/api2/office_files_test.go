package api2_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

func TestFileUpload(t *testing.T) {
	over := bytes.Repeat([]byte("x"), officeMaxFile+1)
	for _, c := range []struct {
		name, file, fileType string
		content              []byte
		bodyLimit            int
		status               int
		want                 string
	}{
		{name: "pdf", file: "scan.pdf", fileType: "application/pdf", content: pdf, status: 201, want: "application/pdf"},
		{name: "type with parameters", file: "a.pdf", fileType: "Application/PDF; x=1", content: pdf, status: 201, want: "application/pdf"},
		{name: "type from the extension", file: "photo.png", content: []byte("not really a png"), status: 201, want: "image/png"},
		{name: "type sniffed", file: "noext", fileType: "application/octet-stream", content: pdf, status: 201, want: "application/pdf"},
		{name: "exactly the limit", file: "big.pdf", fileType: "application/pdf", content: bytes.Repeat([]byte("y"), officeMaxFile), status: 201},
		{name: "type not allowed", file: "notes.txt", fileType: "text/plain", content: []byte("hello"), status: 400,
			want: "files of type text/plain are not accepted"},
		{name: "over the size limit", file: "big.pdf", fileType: "application/pdf", content: over, status: 413,
			want: "files may have at most 1024 bytes"},
		{name: "over the server's body limit", file: "huge.pdf", fileType: "application/pdf",
			content: bytes.Repeat([]byte("z"), 8192), bodyLimit: 4096, status: 413},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newOfficeEnv(t)
			e.Cookie(t, "alice")
			before := e.snapshot()
			var r *webtest.Response
			if c.bodyLimit > 0 {
				r = overTCP(t, e, c.bodyLimit, c.file, c.content)
			} else {
				r = e.upload("alice", c.file, c.fileType, c.content)
			}
			if r.Status != c.status || !bytes.Contains([]byte(r.Body), []byte(c.want)) {
				t.Fatalf("status %d body %s; want %d with %q", r.Status, r.Body, c.status, c.want)
			}
			if c.status != 201 {
				if after := e.snapshot(); after != before {
					t.Fatalf("a refused upload left something:\n%s", after)
				}
				return
			}
			var f model.File
			r.Decode(t, &f)
			if f.ID == 0 || f.Name != c.file || f.Size != int64(len(c.content)) || f.Owner() != e.IDs["alice"] {
				t.Errorf("answer %+v", f)
			}
			stored, err := os.ReadFile(filepath.Join(e.files, f.ID.String()))
			e.must(err)
			if !bytes.Equal(stored, c.content) {
				t.Errorf("stored %d bytes, sent %d", len(stored), len(c.content))
			}
			if disk := e.onDisk(); len(disk) != 1 {
				t.Errorf("files dir holds %v, want the one file only", disk)
			}
		})
	}
}

func TestFileUploadNeedsTheField(t *testing.T) {
	e := newOfficeEnv(t)
	r := e.Call(t, "alice", "POST", "/api2/files", `{"file":"abc"}`)
	if r.Status != 400 {
		t.Fatalf("status %d body %s", r.Status, r.Body)
	}
	if r = e.upload("", "a.pdf", "application/pdf", pdf); r.Status != 401 {
		t.Fatalf("anonymous upload: %d", r.Status)
	}
}

func TestFiles(t *testing.T) {
	// bobTicket: bob's ticket tb, answered by the admin with the admin's file fa.
	bobTicket := func(t *testing.T, e *officeEnv) {
		e.file("fa", "admin")
		e.ticket("tb", "bob", "Van offline")
		e.respond("rb", "admin", "tb", "see the manual", "fa")
	}
	content := func(t *testing.T, _ *officeEnv, r *webtest.Response) {
		if r.Body != string(pdf) || r.Header.Get("Content-Type") != "application/pdf" ||
			r.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("download: %v %q", r.Header, r.Body)
		}
	}
	runOffice(t, []officeScenario{
		{Name: "owner downloads", As: "alice", Method: "GET", Path: "/api2/files/{f1}",
			Before: func(t *testing.T, e *officeEnv) { e.file("f1", "alice") }, Status: 200, After: func(t *testing.T, e *officeEnv, r *webtest.Response) {
				content(t, e, r)
				if got := r.Header.Get("Content-Disposition"); got != `attachment; filename=f1.pdf` {
					t.Errorf("disposition %q", got)
				}
			}},
		{Name: "admin downloads", As: "admin", Method: "GET", Path: "/api2/files/{f1}",
			Before: func(t *testing.T, e *officeEnv) { e.file("f1", "alice") }, Status: 200, After: content},
		{Name: "another user's file", As: "bob", Method: "GET", Path: "/api2/files/{f1}",
			Before: func(t *testing.T, e *officeEnv) { e.file("f1", "alice") }, Status: 404, Absent: []string{"%PDF"}},
		{Name: "ticket owner reads support's attachment", As: "bob", Method: "GET", Path: "/api2/files/{fa}",
			Before: bobTicket, Status: 200, After: content},
		{Name: "others do not", As: "alice", Method: "GET", Path: "/api2/files/{fa}",
			Before: bobTicket, Status: 404},
		{Name: "missing content is not found", As: "alice", Method: "GET", Path: "/api2/files/{f1}",
			Before: func(t *testing.T, e *officeEnv) {
				e.file("f1", "alice")
				e.must(os.Remove(filepath.Join(e.files, strconv.FormatInt(e.IDs["f1"], 10))))
			}, Status: 404},

		{Name: "owner deletes an unused file", As: "alice", Method: "DELETE", Path: "/api2/files/{f1}",
			Before: func(t *testing.T, e *officeEnv) { e.file("f1", "alice") }, Status: 200,
			Want: []string{`"message":"File deleted successfully"`, `"fileId":"{f1}"`},
			After: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				if snap := e.snapshot(); snap != "disk []\n" {
					t.Errorf("left behind:\n%s", snap)
				}
			}},
		{Name: "another user cannot delete", As: "bob", Method: "DELETE", Path: "/api2/files/{f1}",
			Before: func(t *testing.T, e *officeEnv) { e.file("f1", "alice") }, Status: 404, Unchanged: true},
		{Name: "the ticket owner cannot delete support's attachment", As: "bob", Method: "DELETE", Path: "/api2/files/{fa}",
			Before: bobTicket, Status: 404, Unchanged: true},
		{Name: "a file in use is kept", As: "alice", Method: "DELETE", Path: "/api2/files/{f1}",
			Before: aliceTicket, Status: 400, Want: []string{"attached to ticket:{t1}"}, Unchanged: true},
	})
}

// overTCP uploads through a real listener of an app with bodyLimit: Fiber
// refuses the body before any handler runs, which app.Test cannot show.
func overTCP(t *testing.T, e *officeEnv, bodyLimit int, name string, content []byte) *webtest.Response {
	t.Helper()
	addr := webtest.Serve(t, web.New(e.Core, web.Options{Limits: httpx.Limits{MaxUpload: bodyLimit}, Logger: slog.New(slog.DiscardHandler)}))
	body, contentType := multipartBody(t, name, "application/pdf", content)
	req, err := http.NewRequest("POST", "http://"+addr+"/api2/files", body)
	e.must(err)
	req.Header.Set("Content-Type", contentType)
	req.AddCookie(e.Cookie(t, "alice"))
	res, err := http.DefaultClient.Do(req)
	e.must(err)
	return webtest.Read(t, res)
}
