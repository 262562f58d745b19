package accounts

import (
	"mime"
	"path"
	"strings"
	"unicode"

	"github.com/fleetd/fleetd/app/model"
)

// maxWebFilePath bounds the name of a web file.
const maxWebFilePath = 255

// UploadWebFile stores data under name for the web app: Traccar's
// POST /api/server/file/{path}, which writes into its web override
// directory (a logo the server's "logo" attribute then points at).
// Administrators only. fleetd keeps them in the store (so backups carry
// them) and serves them at GET /api/server/file/{path}.
func (acc *Service) UploadWebFile(actor *model.User, name string, data []byte) error {
	if !actor.Administrator {
		return model.Forbidden("Only administrators may upload files")
	}
	clean, err := webFilePath(name)
	if err != nil {
		return err
	}
	typ := mime.TypeByExtension(path.Ext(clean))
	if typ == "" {
		typ = "application/octet-stream"
	}
	return acc.store.As(actor).Update(func(tx model.Tx) error {
		return tx.WebFiles().Put(clean, &model.Blob{Type: typ, Data: data})
	})
}

// WebFile reads an uploaded web file; anyone may, as anyone may read a
// web app's files (the login page shows the logo).
func (acc *Service) WebFile(name string) (*model.Blob, error) {
	clean, err := webFilePath(name)
	if err != nil {
		return nil, err
	}
	var b *model.Blob
	err = acc.store.View(func(tx model.Tx) (err error) {
		if b, err = tx.WebFiles().Get(clean); err != nil && model.ClassOf(err) == model.ClassNotFound {
			err = model.NotFound("File")
		}
		return err
	})
	return b, err
}

// webFilePath cleans a web file's path: relative, without dot segments
// (Traccar refuses a path out of its directory), no control characters.
func webFilePath(name string) (string, error) {
	clean := strings.TrimPrefix(path.Clean("/"+name), "/")
	switch {
	case clean == "" || len(clean) > maxWebFilePath:
		return "", model.Invalid("a file path needs 1 to %d bytes", maxWebFilePath)
	case clean != name:
		return "", model.Invalid("the file path %q is not clean (no leading /, no . or .. segments)", name)
	case strings.IndexFunc(clean, unicode.IsControl) >= 0:
		return "", model.Invalid("the file path has control characters")
	}
	return clean, nil
}
