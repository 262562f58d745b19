package storage

import (
	"errors"
	"slices"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// A device's files are kept by name, outlive the transaction that read
// them, and go together; another device's and the web files stay.
func TestBlobs(t *testing.T) {
	db := openTestDB(t)
	png := &model.Blob{Type: "image/png", Data: []byte("\x89PNG\r\n\x1a\n\x00")}
	mustUpdate(t, db, func(tx model.Tx) error {
		return errors.Join(tx.Media().Put("1/device.png", png), tx.Media().Put("1/photo.jpg", png),
			tx.Media().Put("12/device.png", png), tx.WebFiles().Put("1/logo.png", png))
	})
	var kept *model.Blob
	mustView(t, db, func(tx model.Tx) (err error) { kept, err = tx.Media().Get("1/device.png"); return err })
	if kept.Type != png.Type || string(kept.Data) != string(png.Data) {
		t.Fatalf("read %+v", kept)
	}
	mustUpdate(t, db, func(tx model.Tx) error {
		n, err := tx.Media().DeletePrefix("1/")
		if n != 2 {
			t.Errorf("deleted %d, want 2", n)
		}
		return err
	})
	mustView(t, db, func(tx model.Tx) error {
		for _, c := range []struct {
			in    model.BlobsTx
			name  string
			found bool
		}{{tx.Media(), "1/device.png", false}, {tx.Media(), "1/photo.jpg", false},
			{tx.Media(), "12/device.png", true}, {tx.WebFiles(), "1/logo.png", true}} {
			if _, err := c.in.Get(c.name); (err == nil) != c.found || (err != nil && !errors.Is(err, model.ErrNotFound)) {
				t.Errorf("%s: %v, want found %v", c.name, err, c.found)
			}
		}
		return nil
	})
	if string(kept.Data) != string(png.Data) {
		t.Error("a read file changed after its transaction")
	}
	mustUpdate(t, db, func(tx model.Tx) error {
		if err := tx.WebFiles().Put("x", &model.Blob{Type: "a\x00b"}); !errors.Is(err, model.ErrInvalid) {
			t.Errorf("a type with NUL: %v", err)
		}
		return nil
	})
}

// Newest lists a range of names, last first, without the bytes.
func TestBlobsNewest(t *testing.T) {
	db := openTestDB(t)
	names := []string{"1/20260101T000000Z-A.amr", "1/20260102T000000Z-B.jpg", "1/20260103T000000Z-C.jpg", "1/device.png", "10/20260101T000000Z-D.amr"}
	mustUpdate(t, db, func(tx model.Tx) error {
		for _, n := range names {
			if err := tx.Media().Put(n, &model.Blob{Type: "x/" + n[len(n)-3:], Data: []byte(n)}); err != nil {
				return err
			}
		}
		return nil
	})
	for _, c := range []struct {
		from, to string
		limit    int
		want     []string
	}{
		{"1/2", "1/3", 10, []string{names[2], names[1], names[0]}},
		{"1/2", "1/3", 2, []string{names[2], names[1]}},
		{"1/20260102", "1/20260103", 10, []string{names[1]}},
		{"1/", "1/\xff", 10, []string{names[3], names[2], names[1], names[0]}},
		{"2/", "2/\xff", 10, nil},
		{"10/", "10/\xff", 10, []string{names[4]}},
	} {
		var got []model.BlobInfo
		mustView(t, db, func(tx model.Tx) (err error) { got, err = tx.Media().Newest(c.from, c.to, c.limit); return err })
		var gotNames []string
		for _, b := range got {
			gotNames = append(gotNames, b.Name)
			if b.Size != len(b.Name) || b.Type != "x/"+b.Name[len(b.Name)-3:] {
				t.Errorf("%s: %+v", b.Name, b)
			}
		}
		if !slices.Equal(gotNames, c.want) {
			t.Errorf("Newest(%q, %q, %d) = %q, want %q", c.from, c.to, c.limit, gotNames, c.want)
		}
	}
}
