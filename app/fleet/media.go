package fleet

import (
	"crypto/rand"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// DeviceImageMaxSize is Traccar's bound on a device image
// (DeviceResource.IMAGE_SIZE_LIMIT).
const DeviceImageMaxSize = 500_000

// imageExtensions are the image types Traccar takes, with the extension
// of the name it gives the file.
var imageExtensions = map[string]string{"image/jpeg": "jpg", "image/png": "png", "image/gif": "gif", "image/webp": "webp"}

// mediaPrefix is where a device's files are kept in the store's media.
func mediaPrefix(deviceID int64) string { return fmt.Sprintf("%d/", deviceID) }

// mediaStamp is the layout of the arrival time that starts the name of a
// file a device sent: the names then sort by arrival, so retention deletes
// a range of them. The device's picture ("device.<ext>") sorts after every
// stamp and is never in that range.
const mediaStamp = "20060102T150405Z"

// MediaKey is where the store keeps the device's file name.
func MediaKey(deviceID int64, name string) string { return mediaPrefix(deviceID) + name }

// NewMediaName names a file the device sent at t, like
// "20261124T231500Z-K3QF7ZJA.jpg": its arrival and a random part, so two
// files of one second do not collide and a name cannot be guessed from
// another.
func NewMediaName(t time.Time, ext string) string {
	return t.UTC().Format(mediaStamp) + "-" + rand.Text()[:8] + "." + ext
}

// MediaBefore bounds the keys of the device's files that arrived before t:
// in the store they sort from MediaKey(deviceID, "") up to, not including,
// this bound.
func MediaBefore(deviceID int64, t time.Time) string {
	return mediaPrefix(deviceID) + t.UTC().Format(mediaStamp)
}

// SetDeviceImage stores data as device id's picture and answers its file
// name, "device.<ext>" as in Traccar; the web app then keeps that name in
// the device's deviceImage attribute and shows the file from
// /api/media/{uniqueId}/{name}. The bytes must be an image of the declared
// type: a file served from the API's origin must be what it says it is.
func (fl *Service) SetDeviceImage(actor *model.User, deviceID int64, contentType string, data []byte) (string, error) {
	typ, _, _ := mime.ParseMediaType(contentType)
	ext, ok := imageExtensions[typ]
	switch {
	case !ok:
		return "", model.Invalid("unsupported image type %q: send image/jpeg, image/png, image/gif or image/webp", contentType)
	case len(data) > DeviceImageMaxSize:
		return "", model.Invalid("the image has %d bytes; at most %d are taken", len(data), DeviceImageMaxSize)
	case http.DetectContentType(data) != typ:
		return "", model.Invalid("the content is not a %s image", strings.TrimPrefix(typ, "image/"))
	}
	name := "device." + ext
	err := fl.store.As(actor).Update(func(tx model.Tx) error {
		if err := (access.Guard{Tx: tx, Actor: actor}).MayEdit(model.KindDevice, deviceID); err != nil {
			return err
		}
		// One picture per device, whatever its type.
		if _, err := tx.Media().DeletePrefix(mediaPrefix(deviceID) + "device."); err != nil {
			return err
		}
		return tx.Media().Put(mediaPrefix(deviceID)+name, &model.Blob{Type: typ, Data: data})
	})
	if err != nil {
		return "", err
	}
	return name, nil
}

// Media reads the file name of the device with uniqueID, which the actor
// must see (Traccar's MediaFilter).
func (fl *Service) Media(actor *model.User, uniqueID, name string) (*model.Blob, error) {
	var b *model.Blob
	err := fl.store.View(func(tx model.Tx) error {
		d, err := tx.DeviceByUniqueID(uniqueID)
		if err != nil {
			return namedNotFound(err, "Device")
		}
		b, err = readMedia(tx, actor, d.ID, name)
		return err
	})
	return b, err
}

// DeviceMedia reads the file name of device deviceID, which the actor must
// see.
func (fl *Service) DeviceMedia(actor *model.User, deviceID int64, name string) (*model.Blob, error) {
	var b *model.Blob
	err := fl.store.View(func(tx model.Tx) (err error) {
		b, err = readMedia(tx, actor, deviceID, name)
		return err
	})
	return b, err
}

func readMedia(tx model.Tx, actor *model.User, deviceID int64, name string) (*model.Blob, error) {
	if err := (access.Guard{Tx: tx, Actor: actor}).MustSee(model.KindDevice, deviceID); err != nil {
		return nil, err
	}
	b, err := tx.Media().Get(mediaPrefix(deviceID) + name)
	return b, namedNotFound(err, "File")
}

// DeviceFile is a file a device sent (a photo, a voice message).
type DeviceFile struct {
	Name    string
	Type    string
	Size    int
	Arrived time.Time
}

// DeviceFiles lists the files device deviceID sent from from until to,
// newest first, at most limit; the actor must see the device.
func (fl *Service) DeviceFiles(actor *model.User, deviceID int64, from, to time.Time, limit int) ([]DeviceFile, error) {
	var out []DeviceFile
	err := fl.store.View(func(tx model.Tx) error {
		if err := (access.Guard{Tx: tx, Actor: actor}).MustSee(model.KindDevice, deviceID); err != nil {
			return err
		}
		infos, err := tx.Media().Newest(MediaBefore(deviceID, from), MediaBefore(deviceID, to), limit)
		for _, b := range infos {
			name := strings.TrimPrefix(b.Name, mediaPrefix(deviceID))
			arrived, _ := time.Parse(mediaStamp, name[:min(len(name), len(mediaStamp))])
			out = append(out, DeviceFile{Name: name, Type: b.Type, Size: b.Size, Arrived: arrived})
		}
		return err
	})
	return out, err
}

// namedNotFound says what was not found where the store only says "not found".
func namedNotFound(err error, what string) error {
	if errors.Is(err, model.ErrNotFound) {
		return model.NotFound(what)
	}
	return err
}
