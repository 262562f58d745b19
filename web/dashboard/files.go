package dashboard

import (
	"fmt"
	"mime"
	"mime/multipart"
	"slices"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

func (d *Dashboard) fileRoutes() []route {
	return []route{{"GET", "/files/:id", d.download}}
}

// download sends an attachment the caller may read.
func (d *Dashboard) download(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	f, content, err := d.officeAdmin(c).OpenFile(id)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, f.Type)
	c.Set(fiber.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": f.Name}))
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderCacheControl, "private, no-store")
	return httpx.SendStream(c, content, int(f.Size)) // closes content once sent
}

func fileURL(f *model.File) string { return Prefix + "/files/" + f.ID.String() }

// fileSize is a size as people read it.
func fileSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// files resolves attachment ids to their metadata, skipping any the actor
// may no longer read.
func (d *Dashboard) files(actor *model.User, ids []model.TextID) ([]*model.File, error) {
	out := make([]*model.File, 0, len(ids))
	for _, id := range ids {
		f, err := d.core.Office.Admin(actor).File(int64(id))
		if model.ClassOf(err) == model.ClassNotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// uploadAll stores the files of a multipart form field and returns their
// ids; a form that is not multipart has none. On error the files stored so
// far are removed again.
func (d *Dashboard) uploadAll(c *fiber.Ctx, actor *model.User, field string) ([]model.TextID, error) {
	if !strings.HasPrefix(c.Get(fiber.HeaderContentType), fiber.MIMEMultipartForm) {
		return nil, nil
	}
	form, err := c.MultipartForm()
	if err != nil {
		return nil, model.Invalid("the form could not be read: %v", err)
	}
	var ids []model.TextID
	for _, fh := range form.File[field] {
		if fh.Size == 0 && fh.Filename == "" { // an empty file input
			continue
		}
		f, err := d.uploadOne(actor, fh)
		if err != nil {
			d.discardUploads(actor, ids)
			return nil, err
		}
		ids = append(ids, f.ID)
	}
	return ids, nil
}

func (d *Dashboard) uploadOne(actor *model.User, fh *multipart.FileHeader) (*model.File, error) {
	if limit := d.core.Office.MaxFileSize(); fh.Size > limit {
		return nil, model.Invalid("%s is too large: files may have at most %s", fh.Filename, fileSize(limit))
	}
	r, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return d.core.Office.UploadFile(actor, fh.Filename, fh.Header.Get(fiber.HeaderContentType), fh.Size, r)
}

// discardUploads removes files uploaded for a form the core then refused.
func (d *Dashboard) discardUploads(actor *model.User, ids []model.TextID) {
	for _, id := range ids {
		if err := d.core.Office.DeleteFile(actor, int64(id)); err != nil {
			d.log.Warn("uploaded file not removed", "fileId", id, "err", err)
		}
	}
}

// attachedForm is how a form saves one kind of record with attachments
// (documents, service records): read the fields, reach the file list, and
// the core's create and update.
type attachedForm[T any, P interface {
	*T
	SetID(int64)
}] struct {
	read   func(*fiber.Ctx, *T) error
	files  func(*T) *[]model.TextID
	create func(func(*T) error) (*T, error)
	update func(int64, func(*T) error) (*T, error)
	// again shows the form once more with what was submitted and why it
	// was refused.
	again func(c *fiber.Ctx, status int, submitted *T, problem error) error
}

// save creates (id 0) or updates a record from the form, with the files
// uploaded along; done answers with the saved record. When the core
// refuses, the uploads are removed again and the form comes back.
func (f attachedForm[T, P]) save(d *Dashboard, c *fiber.Ctx, id int64, done func(*T) error) error {
	actor := user(c)
	uploaded, err := d.uploadAll(c, actor, "files")
	var submitted T
	apply := func(v *T) error {
		err := f.read(c, v)
		*f.files(v) = append(*f.files(v), uploaded...)
		submitted = *v
		return err
	}
	var saved *T
	if err == nil {
		if id == 0 {
			saved, err = f.create(apply)
		} else {
			saved, err = f.update(id, apply)
		}
	}
	if err == nil {
		return done(saved)
	}
	d.discardUploads(actor, uploaded)
	P(&submitted).SetID(id)
	files := f.files(&submitted)
	*files = slices.DeleteFunc(*files, func(id model.TextID) bool { return slices.Contains(uploaded, id) })
	return d.formFailed(c, err, func(status int) error { return f.again(c, status, &submitted, err) })
}
