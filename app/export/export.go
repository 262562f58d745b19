// Package export writes reports and routes as files: Excel workbooks
// (one sheet per device, as Traccar's report templates have them), and
// tracks as KML, GPX and CSV. Writers stream: rows go out as they come,
// so a long route costs a row's memory, not the route's.
package export

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"
)

// Workbook is an Excel workbook being written, one sheet at a time.
type Workbook struct {
	f     *excelize.File
	names map[string]bool
	sheet *excelize.StreamWriter
	row   int
	loc   *time.Location
	bold  int
}

// NewWorkbook starts a workbook whose times are shown in loc.
func NewWorkbook(loc *time.Location) *Workbook {
	f := excelize.NewFile()
	bold, _ := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	return &Workbook{f: f, names: map[string]bool{}, loc: loc, bold: bold}
}

// Sheet starts a new sheet named after name (made safe and unique, as
// Excel allows at most 31 characters and no []:*?/\) with a bold header.
func (w *Workbook) Sheet(name string, headers ...string) error {
	if err := w.flush(); err != nil {
		return err
	}
	title := w.unique(safeSheetName(name))
	if len(w.names) == 1 {
		if err := w.f.SetSheetName("Sheet1", title); err != nil {
			return err
		}
	} else if _, err := w.f.NewSheet(title); err != nil {
		return err
	}
	sw, err := w.f.NewStreamWriter(title)
	if err != nil {
		return err
	}
	w.sheet, w.row = sw, 1
	cells := make([]any, len(headers))
	for i, h := range headers {
		cells[i] = excelize.Cell{StyleID: w.bold, Value: h}
	}
	return w.Row(cells...)
}

// Row appends a row to the current sheet. Times are written in the
// workbook's zone; nil is an empty cell.
func (w *Workbook) Row(values ...any) error {
	for i, v := range values {
		if t, ok := v.(time.Time); ok {
			values[i] = Time(t, w.loc)
		}
	}
	cell, err := excelize.CoordinatesToCellName(1, w.row)
	if err != nil {
		return err
	}
	w.row++
	return w.sheet.SetRow(cell, values)
}

// WriteTo finishes the workbook into out.
func (w *Workbook) WriteTo(out io.Writer) (int64, error) {
	if len(w.names) == 0 {
		if err := w.Sheet("Report"); err != nil {
			return 0, err
		}
	}
	if err := w.flush(); err != nil {
		return 0, err
	}
	defer w.f.Close()
	return w.f.WriteTo(out)
}

func (w *Workbook) flush() error {
	if w.sheet == nil {
		return nil
	}
	err := w.sheet.Flush()
	w.sheet = nil
	return err
}

func (w *Workbook) unique(name string) string {
	out := name
	for n := 2; w.names[strings.ToLower(out)]; n++ {
		suffix := fmt.Sprintf("-%d", n)
		out = truncate(name, 31-len(suffix)) + suffix
	}
	w.names[strings.ToLower(out)] = true
	return out
}

// safeSheetName replaces what Excel refuses in a sheet name.
func safeSheetName(name string) string {
	name = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`[]:*?/\`, r) || r < ' ' {
			return '_'
		}
		return r
	}, strings.Trim(name, "' "))
	if name == "" {
		name = "Device"
	}
	return truncate(name, 31)
}

// truncate cuts s to at most n characters.
func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// Time formats t in loc as the exports show times: "2006-01-02 15:04:05"
// (Traccar's export format); the zero time is empty.
func Time(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return ""
	}
	return t.In(loc).Format("2006-01-02 15:04:05")
}
