package dashboard

import (
	"slices"
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/gofiber/fiber/v2"
)

// formReader reads typed form fields, keeping the first problem so a
// handler can read every field and check once.
type formReader struct {
	c   *fiber.Ctx
	err error
}

func (r *formReader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *formReader) text(name string) string { return strings.TrimSpace(r.c.FormValue(name)) }

// id reads an optional id field: empty is 0.
func (r *formReader) id(name string) int64 { return r.parseID(name, r.text(name)) }

// queryID reads an optional id from the query string.
func (r *formReader) queryID(name string) int64 {
	return r.parseID(name, strings.TrimSpace(r.c.Query(name)))
}

func (r *formReader) parseID(name, s string) int64 {
	if s == "" {
		return 0
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id < 0 {
		r.fail(model.Invalid("%s must be an id", name))
	}
	return id
}

// float reads an optional number: empty is nil.
func (r *formReader) float(name, label string) *float64 {
	s := strings.ReplaceAll(r.text(name), ",", "")
	if s == "" {
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		r.fail(model.Invalid("%s must be a number", label))
		return nil
	}
	return &v
}

// date reads an optional date (YYYY-MM-DD from a date input).
func (r *formReader) date(name, label string) model.Date {
	s := r.text(name)
	if s == "" {
		return model.Date{}
	}
	d, err := model.ParseDate(s)
	if err != nil {
		r.fail(model.Invalid("%s must be a date like 2025-03-01", label))
	}
	return d
}

// values reads every value of a repeated field, from a URL-encoded or a
// multipart form.
func (r *formReader) values(name string) []string {
	if form, err := r.c.MultipartForm(); err == nil {
		return form.Value[name]
	}
	var out []string
	for _, v := range r.c.Request().PostArgs().PeekMulti(name) {
		out = append(out, string(v))
	}
	return out
}

// ids reads a repeated id field (checkboxes of vehicles).
func (r *formReader) ids(name string) []int64 {
	var out []int64
	for _, v := range r.values(name) {
		if id := r.parseID(name, strings.TrimSpace(v)); id != 0 {
			out = append(out, id)
		}
	}
	return out
}

// keptFiles applies an edit form's attachment checkboxes (keepFile, one per
// attached file; unchecked ones are removed) to ids. Forms without the
// checkboxes (editingFiles unset) keep every file.
func (r *formReader) keptFiles(ids []model.TextID) []model.TextID {
	if r.c.FormValue("editingFiles") != "1" {
		return ids
	}
	keep := r.values("keepFile")
	return slices.DeleteFunc(ids, func(id model.TextID) bool { return !slices.Contains(keep, id.String()) })
}
