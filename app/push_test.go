package app_test

import (
	"context"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/notify"
	"github.com/fleetd/fleetd/storage/storagetest"
)

type nopSender struct{}

func (nopSender) Push(context.Context, notify.PushMessage) error { return nil }

// TestPushQueueNeverBlocks: with no worker running, a full queue drops
// and counts instead of making the caller (the ingest) wait.
func TestPushQueueNeverBlocks(t *testing.T) {
	db := storagetest.Open(t)
	core := app.New(db, app.Options{Push: notify.PushOptions{Sender: nopSender{}, QueueSize: 2}})
	for i, want := range []bool{true, true, false, false} {
		err := core.Notify.NotifyUser(1, notify.Notification{Title: "t"})
		if (err == nil) != want {
			t.Fatalf("notification %d: %v", i, err)
		}
	}
	if s := core.Notify.PushStats(); s.Queued != 2 || s.Dropped != 2 {
		t.Fatalf("stats %+v", s)
	}
	if err := core.Notify.NotifyUser(1, notify.Notification{Type: "weather"}); model.ClassOf(err) != model.ClassInvalid {
		t.Fatalf("unknown type: %v", err)
	}
	off := app.New(db, app.Options{})
	if err := off.Notify.NotifyUser(1, notify.Notification{Title: "t"}); err != nil || off.Notify.PushStats().Queued != 0 {
		t.Fatalf("without a sender: %v %+v", err, off.Notify.PushStats())
	}
}
