package dashboard

import (
	"net/url"
	"strconv"

	"github.com/fleetd/fleetd/app"
)

func deviceAction(dev *app.Device) string {
	if dev.ID == 0 {
		return Prefix + "/fleet/devices"
	}
	return Prefix + "/fleet/devices/" + itoa(dev.ID)
}

// fleetListURL is what the fleet list polls: the same filters.
func fleetListURL(v fleetView) string {
	q := url.Values{}
	if v.Query != "" {
		q.Set("q", v.Query)
	}
	if v.Status != "" {
		q.Set("status", v.Status)
	}
	if len(q) == 0 {
		return Prefix + "/fleet"
	}
	return Prefix + "/fleet?" + q.Encode()
}

func coords(p *app.Position) string {
	return strconv.FormatFloat(p.Latitude, 'f', 5, 64) + ", " + strconv.FormatFloat(p.Longitude, 'f', 5, 64)
}

func groupOptions(groups []*app.Group) []option {
	out := []option{{"0", "No group"}}
	for _, g := range groups {
		out = append(out, option{itoa(g.ID), g.Name})
	}
	return out
}
