package dashboard

import (
	"strconv"

	"github.com/fleetd/fleetd/app"
)

func deviceAction(dev *app.Device) string {
	if dev.ID == 0 {
		return Prefix + "/fleet/devices"
	}
	return Prefix + "/fleet/devices/" + itoa(dev.ID)
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
