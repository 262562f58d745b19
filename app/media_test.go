package app_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/storagetest"
)

// A file a device sends with a position (a watch's voice message or
// photo) is stored with it, named in its attribute, served by the media
// API and deleted by retention with the positions of its time; the
// device's own picture stays.
func TestDeviceMedia(t *testing.T) {
	db := storagetest.Open(t)
	clock := retentionNow
	core := app.New(db, app.Options{BcryptCost: 4, Now: func() time.Time { return clock }})
	d := addDevice(t, core, "M1", nil)
	png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 32)...)
	picture, err := core.Fleet.SetDeviceImage(model.System(), d.ID, "image/png", png)
	if err != nil {
		t.Fatal(err)
	}

	send := func(m *model.Media) *model.Position {
		t.Helper()
		p := &model.Position{Protocol: "watch", FixTime: clock.Add(-time.Minute), DeviceTime: clock.Add(-time.Minute),
			Outdated: true, Attributes: model.Attributes{}, Media: m}
		if err := core.Ingest.Ingest(d.ID, []*model.Position{p}); err != nil {
			t.Fatal(err)
		}
		if p.Media != nil {
			t.Error("the position keeps its file's bytes after the store")
		}
		return p
	}
	voice := []byte("#!AMR\n\x3c\x48\xf5\x1f")
	p := send(&model.Media{Key: model.MediaAudio, Ext: "amr", Type: "audio/amr", Data: voice})
	old, _ := p.Attributes[model.MediaAudio].(string)
	if !strings.HasPrefix(old, clock.UTC().Format("20060102T150405Z")+"-") || !strings.HasSuffix(old, ".amr") {
		t.Fatalf("audio attribute %q, want the arrival time, a random part and .amr", p.Attributes[model.MediaAudio])
	}
	b, err := core.Fleet.Media(model.System(), "M1", old)
	if err != nil || b.Type != "audio/amr" || !bytes.Equal(b.Data, voice) {
		t.Fatalf("Media(%q) = %+v, %v", old, b, err)
	}
	var stored *model.Position
	if err := db.View(func(tx model.Tx) (err error) { stored, err = tx.LatestPosition(d.ID); return err }); err != nil {
		t.Fatal(err)
	}
	if stored.Attributes[model.MediaAudio] != old {
		t.Errorf("the stored position names %v, want %q", stored.Attributes[model.MediaAudio], old)
	}

	// A file the ingest does not take leaves the position without one.
	for _, bad := range []*model.Media{
		{Key: model.MediaAudio, Ext: "../x", Type: "audio/amr", Data: voice},
		{Key: "deviceImage", Ext: "png", Type: "image/png", Data: png},
		{Key: model.MediaImage, Ext: "jpg", Type: "image/jpeg"},
		{Key: model.MediaImage, Ext: "jpg", Type: "", Data: png},
		{Key: model.MediaImage, Ext: "jpg", Type: "image/jpeg", Data: make([]byte, ingest.MaxMediaSize+1)},
	} {
		if p := send(bad); p.Attributes[bad.Key] != nil {
			t.Errorf("%s/%s (%d bytes): attribute %v, want none", bad.Key, bad.Ext, len(bad.Data), p.Attributes[bad.Key])
		}
	}

	// Two days later, a photo; retention keeps one day.
	clock = clock.Add(48 * time.Hour)
	photo := []byte("\xff\xd8\xff\xe0]\xff\xd9")
	recent, _ := send(&model.Media{Key: model.MediaImage, Ext: "jpg", Type: "image/jpeg", Data: photo}).Attributes[model.MediaImage].(string)
	got, err := core.Ingest.ApplyRetention(context.Background(), db, ingest.RetentionOptions{Positions: 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if got.Media != 1 {
		t.Errorf("retention deleted %d files, want 1", got.Media)
	}
	if _, err := core.Fleet.Media(model.System(), "M1", old); !errors.Is(err, model.ErrNotFound) {
		t.Errorf("the old voice message: %v, want not found", err)
	}
	for _, name := range []string{recent, picture} {
		if _, err := core.Fleet.Media(model.System(), "M1", name); err != nil {
			t.Errorf("%s: %v after retention", name, err)
		}
	}
}

// retention.media keeps device files for less time than their positions,
// never more; with it unset they go with their positions.
func TestMediaRetention(t *testing.T) {
	const day = 24 * time.Hour
	for _, tc := range []struct {
		name               string
		positions, media   time.Duration
		filesGone, posGone bool
	}{
		{"files with their positions", 2 * day, 0, true, true},
		{"files sooner than positions", 0, 2 * day, true, false},
		{"files sooner, positions later", 20 * day, 2 * day, true, false},
		{"never longer than positions", 2 * day, 20 * day, true, true},
		{"both kept", 20 * day, 20 * day, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := storagetest.Open(t)
			clock := retentionNow
			core := app.New(db, app.Options{BcryptCost: 4, Now: func() time.Time { return clock }})
			d := addDevice(t, core, "M1", nil)
			// An old photo, then a position that stays the latest.
			for i, m := range []*model.Media{{Key: model.MediaImage, Ext: "jpg", Type: "image/jpeg", Data: []byte("\xff\xd8")}, nil} {
				p := &model.Position{Protocol: "watch", Valid: true, Latitude: 52, Longitude: 13, FixTime: clock.Add(-time.Minute),
					DeviceTime: clock.Add(-time.Minute), Attributes: model.Attributes{"n": i}, Media: m}
				if err := core.Ingest.Ingest(d.ID, []*model.Position{p}); err != nil {
					t.Fatal(err)
				}
				clock = clock.Add(5 * day)
			}
			got, err := core.Ingest.ApplyRetention(context.Background(), db, ingest.RetentionOptions{Positions: tc.positions, Media: tc.media})
			if err != nil {
				t.Fatal(err)
			}
			if (got.Media == 1) != tc.filesGone || (got.Positions == 1) != tc.posGone {
				t.Errorf("deleted %d files and %d positions; want files gone %v, positions gone %v", got.Media, got.Positions, tc.filesGone, tc.posGone)
			}
		})
	}
}
