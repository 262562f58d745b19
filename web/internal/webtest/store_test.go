package webtest

import (
	"bytes"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

func TestStoreImage(t *testing.T) {
	db := OpenStore(t)
	before := StoreImage(t, db)
	if err := db.View(func(tx model.Tx) error { _, err := tx.Devices().Count(); return err }); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx model.Tx) error { return model.ErrInvalid }); err == nil {
		t.Fatal("a failing update succeeded")
	}
	if !bytes.Equal(StoreImage(t, db), before) {
		t.Error("a read and a rolled-back write changed the image")
	}
	if err := db.Update(func(tx model.Tx) error { return tx.Groups().Create(&model.Group{Name: "g"}) }); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(StoreImage(t, db), before) {
		t.Error("a commit left the image as it was")
	}
}
