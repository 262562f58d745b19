package office

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fleetd/fleetd/app/model"
)

// Options configures the fleet office: uploads and document expiry.
type Options struct {
	// FilesDir holds uploaded files, one per id; empty refuses uploads.
	FilesDir string
	// MaxFileSize bounds one upload in bytes (default 10 MiB).
	MaxFileSize int64
	// FileTypes are the MIME types uploads may have (default DefaultFileTypes).
	FileTypes []string
	// ExpiringDays is how close to its expiry a document is "expiring" (default 30).
	ExpiringDays int
}

// DefaultFileTypes are photos, scans and PDFs: what support tickets,
// vehicle documents and service receipts carry.
var DefaultFileTypes = []string{"image/jpeg", "image/png", "image/webp", "image/heic", "application/pdf"}

// DefaultMaxFileSize is the upload limit when none is configured.
const DefaultMaxFileSize = 10 << 20

// maxFileIDs bounds the attachments of one record.
const maxFileIDs = 20

func (svc *Service) office() Options {
	o := svc.opts
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = DefaultMaxFileSize
	}
	if len(o.FileTypes) == 0 {
		o.FileTypes = DefaultFileTypes
	}
	if o.ExpiringDays <= 0 {
		o.ExpiringDays = 30
	}
	return o
}

// ErrFileTooLarge refuses an upload over Options.MaxFileSize (HTTP 413).
var ErrFileTooLarge = &model.Error{Class: model.ClassInvalid, Message: "File too large"}

var files = cabinet[model.File, *model.File]{what: "File", table: model.OfficeTx.Files}

// UploadFile stores the content of r as a new file of actor. declaredType
// is the client's Content-Type for it (may be empty), size the length the
// client declared (-1: unknown), refused at once when the disk has less
// room. A write the disk runs out of room for fails with an error of
// KindNoSpace (AsError).
func (svc *Service) UploadFile(actor *model.User, name, declaredType string, size int64, r io.Reader) (*model.File, error) {
	o := svc.office()
	if o.FilesDir == "" {
		return nil, &model.Error{Class: model.ClassUnavailable, Message: "Uploads disabled", Description: "no files directory is configured"}
	}
	br := bufio.NewReaderSize(r, 512)
	head, _ := br.Peek(512)
	f := &model.File{Name: cleanFileName(name), Type: fileType(declaredType, name, head)}
	if !slices.Contains(o.FileTypes, f.Type) {
		return nil, model.Invalid("files of type %s are not accepted (allowed: %s)", f.Type, strings.Join(o.FileTypes, ", "))
	}
	if err := svc.roomFor(size); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(o.FilesDir, 0o750); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(o.FilesDir, uploadTemp+svc.run+"-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	f.Size, err = io.Copy(tmp, io.LimitReader(br, o.MaxFileSize+1))
	err = model.FirstError(err, tmp.Sync(), tmp.Close())
	switch {
	case err != nil:
		return nil, err
	case f.Size > o.MaxFileSize:
		return nil, &model.Error{Class: model.ClassInvalid, Message: ErrFileTooLarge.Message,
			Description: fmt.Sprintf("files may have at most %d bytes", o.MaxFileSize)}
	}
	err = svc.store.As(actor).Update(func(tx model.Tx) error {
		if err := files.create(tx, actor.ID, svc.now(), f); err != nil {
			return err
		}
		// A rolled-back transaction hands the same id out again, so a file
		// renamed here but never committed is overwritten, not leaked.
		return os.Rename(tmp.Name(), svc.filePath(f.ID))
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

func (svc *Service) filePath(id model.TextID) string {
	return filepath.Join(svc.opts.FilesDir, id.String())
}

// cleanFileName keeps the base name of what a client sent, without control
// characters, at most 255 bytes.
func cleanFileName(name string) string {
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, filepath.Base(strings.ReplaceAll(name, `\`, "/")))
	name = strings.TrimSpace(name)
	if name == "" || name == "." || name == ".." || name == "/" {
		return "file"
	}
	for len(name) > 255 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	return name
}

// fileType is the declared MIME type without parameters; for an absent or
// generic one, the type of the name's extension, else the sniffed type.
func fileType(declared, name string, head []byte) string {
	typ, _, err := mime.ParseMediaType(declared)
	if err != nil || typ == "" || typ == "application/octet-stream" {
		typ, _, _ = mime.ParseMediaType(mime.TypeByExtension(strings.ToLower(filepath.Ext(name))))
	}
	if typ == "" {
		typ, _, _ = mime.ParseMediaType(http.DetectContentType(head))
	}
	return strings.ToLower(typ)
}

// File returns the metadata of a file the actor may read.
func (svc *Service) File(actor *model.User, id int64) (*model.File, error) {
	return svc.file(actor, supportPath, id)
}

func (svc *Service) file(actor *model.User, p path, id int64) (*model.File, error) {
	var f *model.File
	err := svc.store.View(func(tx model.Tx) (err error) {
		f, err = svc.readableFile(tx, actor, p, id)
		return err
	})
	return f, err
}

// OpenFile returns a readable file's metadata and content.
func (svc *Service) OpenFile(actor *model.User, id int64) (*model.File, *os.File, error) {
	return svc.openFile(actor, supportPath, id)
}

func (svc *Service) openFile(actor *model.User, p path, id int64) (*model.File, *os.File, error) {
	f, err := svc.file(actor, p, id)
	if err != nil {
		return nil, nil, err
	}
	content, err := os.Open(svc.filePath(f.ID))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, model.NotFound("File content")
	}
	return f, content, err
}

// readableFile: a file is read by whoever p lets reach its owner (on the
// owner path: the owner and administrators), and whoever may read the
// ticket it is attached to (directly or through a response), so both sides
// of a support conversation see its attachments.
func (svc *Service) readableFile(tx model.Tx, actor *model.User, p path, id int64) (*model.File, error) {
	r, err := p(tx, actor)
	if err != nil {
		return nil, err
	}
	f, err := files.of(tx).Get(id)
	if err != nil {
		return nil, err
	}
	if r.has(f.Owner()) {
		return f, nil
	}
	if ticketID, ok := svc.attachedTicket(tx, f.AttachedTo); ok {
		if _, err := tickets.get(tx, ticketID, r.has); err == nil {
			return f, nil
		}
	}
	return nil, model.NotFound(files.what)
}

// attachedTicket is the ticket a file reference belongs to, if any.
func (svc *Service) attachedTicket(tx model.Tx, ref string) (int64, bool) {
	kind, id, ok := parseRef(ref)
	switch {
	case !ok:
		return 0, false
	case kind == refTicket:
		return id, true
	case kind == refResponse:
		r, err := responses.of(tx).Get(id)
		if err != nil {
			return 0, false
		}
		return int64(r.TicketID), true
	}
	return 0, false
}

// DeleteFile removes a file of the actor (an administrator: anyone's) that
// no record uses.
func (svc *Service) DeleteFile(actor *model.User, id int64) error {
	err := svc.store.As(actor).Update(func(tx model.Tx) error {
		f, err := files.get(tx, id, support(actor).has)
		if err != nil {
			return err
		}
		if f.AttachedTo != "" {
			return model.Invalid("the file is attached to %s; remove it from there first", f.AttachedTo)
		}
		return files.remove(tx, f)
	})
	if err == nil {
		svc.removeFileContent([]model.TextID{model.TextID(id)})
	}
	return err
}

// Record kinds files are attached to.
const (
	refTicket   = "ticket"
	refResponse = "response"
	refDocument = "document"
	refService  = "service"
)

func ref(kind string, id int64) string { return fmt.Sprintf("%s:%d", kind, id) }

func parseRef(s string) (kind string, id int64, ok bool) {
	kind, rest, found := strings.Cut(s, ":")
	if !found {
		return "", 0, false
	}
	n, err := model.ParseTextID(rest)
	return kind, int64(n), err == nil
}

// uniqueFileIDs drops repeats, keeping order, and bounds the count.
func uniqueFileIDs(ids []model.TextID) ([]model.TextID, error) {
	out := make([]model.TextID, 0, len(ids))
	for _, id := range ids {
		if id <= 0 {
			return nil, model.Invalid("fileIds must be file ids")
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	if len(out) > maxFileIDs {
		return nil, model.Invalid("at most %d files may be attached", maxFileIDs)
	}
	return out, nil
}

// attachFiles moves the files of a record from before to after: new ones
// must be unused files of the actor and become attached to ref and the
// record owner's (an administrator's upload to a user's document is the
// user's, like the rest of it); dropped ones become unused (the owner may
// attach or delete them).
func attachFiles(tx model.Tx, actor *model.User, owner int64, ref string, before, after []model.TextID) error {
	for _, id := range after {
		if slices.Contains(before, id) {
			continue
		}
		f, err := files.get(tx, int64(id), own(actor).has)
		if model.ClassOf(err) == model.ClassNotFound {
			return model.Invalid("file %s is not one of your files", id)
		}
		if err != nil {
			return err
		}
		if f.AttachedTo != "" && f.AttachedTo != ref {
			return model.Invalid("file %s is already attached to %s", id, f.AttachedTo)
		}
		f.AttachedTo, f.UserID = ref, model.TextID(owner)
		if err := files.of(tx).Put(f); err != nil {
			return err
		}
	}
	for _, id := range before {
		if slices.Contains(after, id) {
			continue
		}
		f, err := files.of(tx).Get(int64(id))
		if model.ClassOf(err) == model.ClassNotFound {
			continue
		}
		if err != nil {
			return err
		}
		f.AttachedTo = ""
		if err := files.of(tx).Put(f); err != nil {
			return err
		}
	}
	return nil
}

// dropFiles deletes the metadata of a deleted record's files; their content
// goes with removeFileContent once the transaction committed.
func dropFiles(tx model.Tx, ids []model.TextID) error {
	for _, id := range ids {
		f, err := files.of(tx).Get(int64(id))
		if model.ClassOf(err) == model.ClassNotFound {
			continue
		}
		if err == nil {
			err = files.remove(tx, f)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// removeFileContent deletes content from disk after its metadata went; a
// failure leaves an orphan on disk, which is logged, never a dangling record.
func (svc *Service) removeFileContent(ids []model.TextID) {
	for _, id := range ids {
		if err := os.Remove(svc.filePath(id)); err != nil && !errors.Is(err, os.ErrNotExist) {
			svc.log.Warn("file content not removed", "file", id, "err", err)
		}
	}
}

// MaxFileSize is the upload limit in bytes.
func (svc *Service) MaxFileSize() int64 { return svc.office().MaxFileSize }
