package storage

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// blobs keeps small files (a device's image, the web files an
// administrator uploads) in a key set's bucket: key the file's name, value
// its content type, a 0 byte, then its bytes. In the store, not the files
// directory, so they go and come back with the store's backups and a
// device's go in the transaction that deletes it.
type blobs struct {
	btx *bolt.Tx
	set *keySetDef
}

func (t *tx) Media() model.BlobsTx    { return blobs{t.btx, ksMedia} }
func (t *tx) WebFiles() model.BlobsTx { return blobs{t.btx, ksWebFiles} }

func (b blobs) bucket() *bolt.Bucket { return collectionBucket(b.btx, b.set.bucket()) }

func (b blobs) Get(name string) (*model.Blob, error) {
	v := b.bucket().Get([]byte(name))
	if v == nil {
		return nil, model.ErrNotFound
	}
	typ, data, ok := bytes.Cut(v, []byte{0})
	if !ok {
		return nil, fmt.Errorf("store is damaged: %s %q has no content type", b.set.name, name)
	}
	// bbolt's bytes live only as long as the transaction.
	return &model.Blob{Type: string(typ), Data: bytes.Clone(data)}, nil
}

func (b blobs) Put(name string, blob *model.Blob) error {
	if name == "" || strings.IndexByte(blob.Type, 0) >= 0 {
		return model.Invalid("a file needs a name and a content type without NUL")
	}
	v := make([]byte, 0, len(blob.Type)+1+len(blob.Data))
	v = append(append(append(v, blob.Type...), 0), blob.Data...)
	return b.bucket().Put([]byte(name), v)
}

func (b blobs) Newest(from, to string, limit int) ([]model.BlobInfo, error) {
	var out []model.BlobInfo
	c := b.bucket().Cursor()
	k, v := c.Seek([]byte(to))
	if k == nil {
		k, v = c.Last()
	}
	for ; k != nil && string(k) >= from && len(out) < limit; k, v = c.Prev() {
		if string(k) >= to {
			continue
		}
		typ, data, ok := bytes.Cut(v, []byte{0})
		if !ok {
			return out, fmt.Errorf("store is damaged: %s %q has no content type", b.set.name, k)
		}
		out = append(out, model.BlobInfo{Name: string(k), Type: string(typ), Size: len(data)})
	}
	return out, nil
}

func (b blobs) DeletePrefix(prefix string) (int, error) {
	c := b.bucket().Cursor()
	n := 0
	for k, _ := c.Seek([]byte(prefix)); k != nil && bytes.HasPrefix(k, []byte(prefix)); k, _ = c.Seek([]byte(prefix)) {
		if err := c.Delete(); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
