package export

import (
	"bufio"
	"encoding/csv"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// Track is one device's positions in a span, read in fixTime order by
// Each (which may be called more than once: CSV reads twice).
type Track struct {
	DeviceName string
	From, To   time.Time
	Each       func(fn func(*model.Position) error) error
}

// KML writes the track as a KML document with one line string of
// longitude,latitude,altitude points, as Traccar's KML export.
func KML(w io.Writer, t Track) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>%s</name>`+
		`<Placemark><name>%s - %s</name><LineString><extrude>1</extrude><tessellate>1</tessellate>`+
		`<altitudeMode>absolute</altitudeMode><coordinates>`,
		escape(t.DeviceName), Time(t.From, time.UTC), Time(t.To, time.UTC))
	sep := ""
	err := t.Each(func(p *model.Position) error {
		_, err := fmt.Fprintf(bw, "%s%s,%s,%s", sep, num(p.Longitude), num(p.Latitude), num(p.Altitude))
		sep = " "
		return err
	})
	if err != nil {
		return err
	}
	bw.WriteString("</coordinates></LineString></Placemark></Document></kml>\n")
	return bw.Flush()
}

// GPX writes the track as a GPX 1.1 track of points with elevation and
// fix time.
func GPX(w io.Writer, t Track) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<gpx version="1.1" creator="fleetd" xmlns="http://www.topografix.com/GPX/1/1">`+
		`<trk><name>%s</name><trkseg>`, escape(t.DeviceName))
	err := t.Each(func(p *model.Position) error {
		_, err := fmt.Fprintf(bw, `<trkpt lat="%s" lon="%s"><ele>%s</ele><time>%s</time></trkpt>`,
			num(p.Latitude), num(p.Longitude), num(p.Altitude), p.FixTime.UTC().Format(time.RFC3339Nano))
		return err
	})
	if err != nil {
		return err
	}
	bw.WriteString("</trkseg></trk></gpx>\n")
	return bw.Flush()
}

// csvColumns are the position fields of a CSV export, before one column
// per attribute the track's positions have (Traccar's CSV export).
var csvColumns = []string{"id", "deviceId", "protocol", "serverTime", "deviceTime", "fixTime", "valid",
	"latitude", "longitude", "altitude", "speed", "course", "address", "accuracy"}

// CSV writes the track as RFC 4180 CSV, times in loc. It reads the track
// twice: once for the attribute columns, once for the rows.
func CSV(w io.Writer, t Track, loc *time.Location) error {
	keys := map[string]bool{}
	err := t.Each(func(p *model.Position) error {
		for k := range p.Attributes {
			keys[k] = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	attrs := make([]string, 0, len(keys))
	for k := range keys {
		attrs = append(attrs, k)
	}
	slices.Sort(attrs)
	cw := csv.NewWriter(w)
	if err := cw.Write(slices.Concat(csvColumns, attrs)); err != nil {
		return err
	}
	row := make([]string, 0, len(csvColumns)+len(attrs))
	err = t.Each(func(p *model.Position) error {
		address := ""
		if p.Address != nil {
			address = *p.Address
		}
		row = append(row[:0], strconv.FormatInt(p.ID, 10), strconv.FormatInt(p.DeviceID, 10), cell(p.Protocol),
			Time(p.ServerTime, loc), Time(p.DeviceTime, loc), Time(p.FixTime, loc), strconv.FormatBool(p.Valid),
			num(p.Latitude), num(p.Longitude), num(p.Altitude), num(p.Speed), num(p.Course), cell(address), num(p.Accuracy))
		for _, k := range attrs {
			row = append(row, value(p.Attributes[k]))
		}
		return cw.Write(row)
	})
	if err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// value renders an attribute for a CSV cell.
func value(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return cell(x)
	case float64:
		return num(x)
	default:
		return cell(fmt.Sprint(x))
	}
}

// cell keeps a spreadsheet from reading text as a formula (CSV
// injection): text starting with = + - @ gets a leading apostrophe.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func escape(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
