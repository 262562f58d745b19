package dashboard

import (
	"log/slog"

	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"path"
	"strings"

	"github.com/fleetd/fleetd/assets"

	"github.com/gofiber/fiber/v2"
)

// AssetPrefix is where the embedded static files are served.
const AssetPrefix = "/assets/"

// fingerprintLen is how many hex digits of the SHA-256 go into a URL: 48
// bits tell versions of one file apart.
const fingerprintLen = 12

// Static serves an embedded file tree under AssetPrefix. Pages link to a
// file by its fingerprinted URL (the content hash in the name), which never
// changes meaning and is cached for a year; the plain name, which relative
// references inside a style sheet use, is served too but revalidated.
type Static struct {
	files map[string]asset // by path in the tree
	urls  map[string]string
	byFP  map[string]string // fingerprinted name -> path
}

type asset struct {
	body  []byte
	ctype string
	etag  string
}

// NewStatic reads every file of root into memory (the tree is small and
// embedded in the binary anyway).
func NewStatic(root fs.FS) (*Static, error) {
	s := &Static{files: map[string]asset{}, urls: map[string]string{}, byFP: map[string]string{}}
	err := fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(root, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		fp := hex.EncodeToString(sum[:])[:fingerprintLen]
		ctype := mime.TypeByExtension(path.Ext(p))
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		s.files[p] = asset{body: body, ctype: ctype, etag: `"` + fp + `"`}
		named := fingerprinted(p, fp)
		s.urls[p] = AssetPrefix + named
		s.byFP[named] = p
		return nil
	})
	return s, err
}

// fingerprinted puts fp before the extension: app.css -> app.<fp>.css.
func fingerprinted(p, fp string) string {
	ext := path.Ext(p)
	return strings.TrimSuffix(p, ext) + "." + fp + ext
}

// URL is the fingerprinted URL of the file at p. An unknown path is a
// programming error that the page tests catch; it yields a URL that 404s.
func (s *Static) URL(p string) string {
	if u, ok := s.urls[p]; ok {
		return u
	}
	return AssetPrefix + "missing/" + p
}

// Handler serves GET AssetPrefix+"*".
func (s *Static) Handler(c *fiber.Ctx) error {
	name := strings.TrimPrefix(c.Path(), AssetPrefix)
	cache := "public, max-age=31536000, immutable"
	p, ok := s.byFP[name]
	if !ok {
		p, cache = name, "no-cache"
	}
	a, ok := s.files[p]
	if !ok {
		return fiber.ErrNotFound
	}
	c.Set(fiber.HeaderCacheControl, cache)
	c.Set(fiber.HeaderETag, a.etag)
	c.Set("X-Content-Type-Options", "nosniff")
	if c.Get(fiber.HeaderIfNoneMatch) == a.etag {
		return c.SendStatus(fiber.StatusNotModified)
	}
	c.Set(fiber.HeaderContentType, a.ctype)
	return c.Send(a.body)
}

// EmbeddedStatic is the Static of the binary's own assets (assets/static).
// Reading an embedded tree cannot fail short of a broken build; if it does,
// the error is logged and the files that were read are served.
func EmbeddedStatic(log *slog.Logger) *Static {
	sub, err := fs.Sub(assets.Static, "static")
	if err == nil {
		var s *Static
		if s, err = NewStatic(sub); err == nil {
			return s
		}
	}
	log.Error("embedded dashboard assets unreadable", "err", err)
	return &Static{files: map[string]asset{}, urls: map[string]string{}, byFP: map[string]string{}}
}
