package app_test

import (
	"errors"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/storagetest"
)

type note struct {
	model.Base
	Text string `json:"text"`
}

func TestRecordTable(t *testing.T) {
	db := storagetest.Open(t)
	table := func(tx model.Tx) model.Table[note] { return model.RecordTable[note](tx, "notes", "note") }

	// Reading a collection that was never written finds nothing.
	err := db.View(func(tx model.Tx) error {
		if n, err := table(tx).Count(); err != nil || n != 0 {
			t.Fatalf("count = %d, %v", n, err)
		}
		_, err := table(tx).Get(1)
		return err
	})
	if !errors.Is(err, model.ErrNotFound) {
		t.Fatalf("get before any write: %v, want not found", err)
	}
	var a, b note
	a.Text, b.Text = "first", "second"
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.Update(func(tx model.Tx) error {
		must(table(tx).Create(&a))
		must(table(tx).Create(&b))
		must(tx.Keys("notes_by_text").Put("first", a.ID))
		b.Text = "changed"
		return table(tx).Put(&b)
	}))
	if a.ID != 1 || b.ID != 2 {
		t.Fatalf("ids = %d, %d; want 1, 2 from the sequence", a.ID, b.ID)
	}
	must(db.View(func(tx model.Tx) error {
		got, err := table(tx).Get(2)
		if err != nil || got.Text != "changed" || got.ID != 2 {
			t.Fatalf("get = %+v, %v", got, err)
		}
		if id, ok, _ := tx.Keys("notes_by_text").Get("first"); !ok || id != 1 {
			t.Fatalf("key lookup = %d %v", id, ok)
		}
		var order []int64
		tx.Records("notes").List(true, func(id int64, _ []byte) bool { order = append(order, id); return true })
		if len(order) != 2 || order[0] != 2 {
			t.Fatalf("reverse order = %v", order)
		}
		return nil
	}))
	must(db.Update(func(tx model.Tx) error { return table(tx).Delete(1) }))
	err = db.Update(func(tx model.Tx) error { return table(tx).Put(&a) })
	if !errors.Is(err, model.ErrNotFound) {
		t.Fatalf("put of a deleted record: %v, want not found", err)
	}
}
