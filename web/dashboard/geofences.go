package dashboard

import (
	"context"
	"strconv"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/geo"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

func (d *Dashboard) geofenceRoutes() []route {
	return []route{
		{"GET", "/geofences", d.geofences},
		{"GET", "/geofences/new", d.geofenceNew},
		{"POST", "/geofences", d.geofenceCreate},
		{"GET", "/geofences/:id", d.geofenceEdit},
		{"POST", "/geofences/:id", d.geofenceUpdate},
		{"POST", "/geofences/:id/delete", d.geofenceDelete},
	}
}

// geofenceRow is one geofence of the list with how many vehicles it
// applies to.
type geofenceRow struct {
	Geofence *model.Geofence
	Vehicles int
}

// geofencesView is the geofence list and its map.
type geofencesView struct {
	Rows []geofenceRow
	Map  geofenceMapData
}

// geofenceMapData is what geofences.js draws: the geofences (the list's)
// and, to draw around, the viewer's vehicles where they last were.
type geofenceMapData struct {
	Tiles    mapTiles     `json:"-"`
	Shapes   []mapShape   `json:"shapes"`
	Vehicles []vehicleDot `json:"vehicles"`
}

// vehicleDot is a vehicle's last position.
type vehicleDot struct {
	Name string  `json:"name"`
	Lat  float64 `json:"lat"`
	Lon  float64 `json:"lon"`
}

// mapShape is one geofence as geofences.js draws it.
type mapShape struct {
	Name string `json:"name"`
	Area string `json:"area"`
	URL  string `json:"url"`
}

func (d *Dashboard) geofences(c *fiber.Ctx) error {
	actor := user(c)
	list, err := d.core.Fleet.Geofences.List(actor, model.Query{})
	if err != nil {
		return err
	}
	m, err := d.geofenceMapData(actor)
	if err != nil {
		return err
	}
	ids := make([]int64, len(list))
	for i, g := range list {
		ids[i] = g.ID
	}
	devices, err := d.core.Fleet.OwnersOfEach(actor, model.KindGeofence, ids, model.KindDevice)
	if err != nil {
		return err
	}
	v := geofencesView{Map: m}
	for _, g := range list {
		v.Rows = append(v.Rows, geofenceRow{Geofence: g, Vehicles: len(devices[g.ID])})
		v.Map.Shapes = append(v.Map.Shapes, mapShape{Name: g.Name, Area: g.Area, URL: geofenceURL(g)})
	}
	return render(c, fiber.StatusOK, geofencesPage(d.page(c, "Geofences", "geofences"), v))
}

// geofenceMapData starts a map's data with the actor's vehicles.
func (d *Dashboard) geofenceMapData(actor *model.User) (geofenceMapData, error) {
	m := geofenceMapData{Tiles: d.tiles(), Shapes: []mapShape{}, Vehicles: []vehicleDot{}}
	names, err := d.entityNames(actor)
	if err != nil {
		return m, err
	}
	positions, err := d.core.Fleet.Positions(actor, fleet.PositionQuery{})
	if err != nil {
		return m, err
	}
	for _, p := range positions {
		m.Vehicles = append(m.Vehicles, vehicleDot{Name: names.of(office.DocumentOfVehicle, p.DeviceID), Lat: p.Latitude, Lon: p.Longitude})
	}
	return m, nil
}

// geofenceForm is the geofence create/edit form with its drawing map.
type geofenceForm struct {
	Geofence *model.Geofence
	Devices  []int64
	Vehicles []option
	Map      geofenceMapData
	Problem  string
}

func (d *Dashboard) geofenceNew(c *fiber.Ctx) error {
	return d.renderGeofenceForm(c, fiber.StatusOK, &model.Geofence{}, nil, nil)
}

func (d *Dashboard) geofenceEdit(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	actor := user(c)
	g, err := d.core.Fleet.Geofences.Get(actor, id)
	if err != nil {
		return err
	}
	devices, err := d.core.Fleet.Owners(actor, model.KindGeofence, id, model.KindDevice)
	if err != nil {
		return err
	}
	return d.renderGeofenceForm(c, fiber.StatusOK, g, devices, nil)
}

func (d *Dashboard) renderGeofenceForm(c *fiber.Ctx, status int, g *model.Geofence, devices []int64, problem error) error {
	actor := user(c)
	names, err := d.entityNames(actor)
	if err != nil {
		return err
	}
	m, err := d.geofenceMapData(actor)
	if err != nil {
		return err
	}
	f := geofenceForm{Geofence: g, Devices: devices, Vehicles: names.options(office.DocumentOfVehicle, "")[1:],
		Map: m, Problem: problemText(problem)}
	title := "New geofence"
	if g.ID != 0 {
		title = g.Name
	}
	return render(c, status, geofencePage(d.page(c, title, "geofences"), f))
}

func (d *Dashboard) geofenceCreate(c *fiber.Ctx) error { return d.saveGeofence(c, 0) }

func (d *Dashboard) geofenceUpdate(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	if _, err := d.core.Fleet.Geofences.Get(user(c), id); err != nil {
		return err // another's geofence is not found, never a form to retry
	}
	return d.saveGeofence(c, id)
}

// saveGeofence creates (id 0) or changes a geofence from the form: its
// area is Traccar's WKT (the map writes it, or it is typed) and the
// vehicles ticked are linked to it.
func (d *Dashboard) saveGeofence(c *fiber.Ctx, id int64) error {
	r := &formReader{c: c}
	in := &model.Geofence{Name: r.text("name"), Description: r.text("description"), Area: r.text("area")}
	in.ID = id
	devices := r.ids("devices")
	err := r.err
	if err == nil {
		_, err = d.core.Fleet.SaveGeofence(user(c), id, func(g *model.Geofence) error {
			g.Name, g.Description, g.Area = in.Name, in.Description, in.Area
			return nil
		}, fleet.Links{model.KindDevice: devices})
	}
	if err != nil {
		return d.formFailed(c, err, func(status int) error { return d.renderGeofenceForm(c, status, in, devices, err) })
	}
	return redirect(c, Prefix+"/geofences")
}

func (d *Dashboard) geofenceDelete(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	if err := d.core.Fleet.Geofences.Delete(user(c), id); err != nil {
		return err
	}
	return redirect(c, Prefix+"/geofences")
}

func geofenceURL(g *model.Geofence) string { return Prefix + "/geofences/" + itoa(g.ID) }

func geofenceAction(g *model.Geofence) string {
	if g.ID == 0 {
		return Prefix + "/geofences"
	}
	return geofenceURL(g)
}

// areaText says what shape a stored area is: a circle with its radius
// in the viewer's unit, or a polygon with its corners.
func areaText(ctx context.Context, area string) string {
	shape, _ := geo.Parse(area)
	switch s := shape.(type) {
	case geo.Circle:
		show := shown(ctx) // radii are short: to a hundredth of the unit
		return "circle, radius " + strconv.FormatFloat(show.DistanceValue(s.Radius), 'f', 2, 64) + " " + show.DistanceLabel()
	case geo.Polygon:
		n := len(s.Lats)
		if s.Lats[0] == s.Lats[n-1] && s.Lons[0] == s.Lons[n-1] { // a closed ring names its first corner twice
			n--
		}
		return "polygon, " + plural(n, "corner", "corners")
	}
	return "unreadable area"
}
