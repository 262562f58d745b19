package webtest

import (
	"bytes"
	"testing"

	"github.com/fleetd/fleetd/app"
)

func TestStoreImage(t *testing.T) {
	db := OpenStore(t)
	before := StoreImage(t, db)
	if err := db.View(func(tx app.Tx) error { _, err := tx.Devices().Count(); return err }); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx app.Tx) error { return app.ErrInvalid }); err == nil {
		t.Fatal("a failing update succeeded")
	}
	if !bytes.Equal(StoreImage(t, db), before) {
		t.Error("a read and a rolled-back write changed the image")
	}
	if err := db.Update(func(tx app.Tx) error { return tx.Groups().Create(&app.Group{Name: "g"}) }); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(StoreImage(t, db), before) {
		t.Error("a commit left the image as it was")
	}
}
