package office

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

func TestCleanFileName(t *testing.T) {
	long := strings.Repeat("é", 200) // 400 bytes
	for _, c := range []struct{ in, want string }{
		{"scan.pdf", "scan.pdf"},
		{"../../etc/passwd", "passwd"},
		{`C:\Users\me\photo.jpg`, "photo.jpg"},
		{"a\x00b\nc.pdf", "abc.pdf"},
		{"", "file"}, {"..", "file"}, {"/", "file"}, {"  ", "file"},
		{long, strings.Repeat("é", 127)},
	} {
		if got := cleanFileName(c.in); got != c.want {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFileType(t *testing.T) {
	for _, c := range []struct{ declared, name, head, want string }{
		{"image/JPEG", "x", "", "image/jpeg"},
		{"application/pdf; charset=binary", "x", "", "application/pdf"},
		{"", "photo.PNG", "", "image/png"},
		{"application/octet-stream", "doc.pdf", "", "application/pdf"},
		{"", "noext", "%PDF-1.7", "application/pdf"},
		{"not a type", "noext", "hello", "text/plain"},
	} {
		if got := fileType(c.declared, c.name, []byte(c.head)); got != c.want {
			t.Errorf("%q %q: %q, want %q", c.declared, c.name, got, c.want)
		}
	}
}

func TestUniqueFileIDs(t *testing.T) {
	got, err := uniqueFileIDs([]model.TextID{3, 1, 3, 2, 1})
	if err != nil || len(got) != 3 || got[0] != 3 || got[2] != 2 {
		t.Errorf("%v %v", got, err)
	}
	if _, err := uniqueFileIDs(make([]model.TextID, 1)); err == nil {
		t.Error("id 0 accepted")
	}
	many := make([]model.TextID, maxFileIDs+1)
	for i := range many {
		many[i] = model.TextID(i + 1)
	}
	if _, err := uniqueFileIDs(many); err == nil {
		t.Error("too many files accepted")
	}
}
