package dashboard

import (
	"strconv"

	"github.com/fleetd/fleetd/app/model"
)

func deviceAction(dev *model.Device) string {
	if dev.ID == 0 {
		return Prefix + "/fleet/devices"
	}
	return vehicleURL(dev.ID) + "/edit"
}

func coords(p *model.Position) string {
	return strconv.FormatFloat(p.Latitude, 'f', 5, 64) + ", " + strconv.FormatFloat(p.Longitude, 'f', 5, 64)
}

func groupOptions(groups []*model.Group) []option {
	out := []option{{"0", "No group"}}
	for _, g := range groups {
		out = append(out, option{itoa(g.ID), g.Name})
	}
	return out
}
