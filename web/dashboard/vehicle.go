package dashboard

import (
	"cmp"
	"errors"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/prefs"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

func (d *Dashboard) vehicleRoutes() []route {
	return []route{
		{"GET", "/fleet/devices/:id", d.vehicle},
		{"GET", "/fleet/devices/:id/route", d.vehicleRoute},
		{"POST", "/fleet/devices/:id/command", d.vehicleCommand},
	}
}

// vehicleView is the vehicle page: where the vehicle is now, its route,
// trips, stops and events over a range of days, its papers and service,
// and the command form.
type vehicleView struct {
	Device   *model.Device
	Group    string
	Position *model.Position
	Range    dayRange
	History  vehicleHistory
	Office   vehicleOffice
	Command  commandView
	Files    []fleet.DeviceFile // photos and voice messages of the range
	Data     vehicleData
	Tiles    mapTiles
	Now      time.Time
}

// maxVehicleFiles bounds the files the vehicle page shows for a range.
const maxVehicleFiles = 24

// latLon is where the live marker starts.
type latLon struct {
	Lat float64 `json:"lat"`
	Lon float64 `json:"lon"`
}

// vehicleData is what vehicle.js needs: the device, its last position, the
// route's URL and the viewer's units for what the live feed sends.
type vehicleData struct {
	ID          int64      `json:"id"`
	Status      string     `json:"status"`
	Position    *latLon    `json:"position"`
	RouteURL    string     `json:"routeUrl"`
	SpeedFactor float64    `json:"speedFactor"` // knots to the viewer's unit
	SpeedUnit   string     `json:"speedUnit"`
	DistFactor  float64    `json:"distanceFactor"` // metres to the viewer's unit
	DistUnit    string     `json:"distanceUnit"`
	Zone        string     `json:"zone"`
	TwelveHour  bool       `json:"twelveHour"`
	LiveEvents  bool       `json:"liveEvents"` // the range reaches today: new events belong in its list
	Attributes  []attrSpec `json:"attributes"`
}

func (d *Dashboard) vehicle(c *fiber.Ctx) error {
	v, err := d.loadVehicle(c)
	if err != nil {
		return err
	}
	return render(c, fiber.StatusOK, vehiclePage(d.page(c, v.Device.Name, "fleet"), v))
}

// loadVehicle reads everything the vehicle page shows, for the range the
// query asks for.
func (d *Dashboard) loadVehicle(c *fiber.Ctx) (vehicleView, error) {
	actor, show := user(c), display(c)
	id, err := httpx.ParamID(c)
	if err != nil {
		return vehicleView{}, err
	}
	dev, err := d.core.Fleet.Devices.Get(actor, id)
	if err != nil {
		return vehicleView{}, err
	}
	v := vehicleView{Device: dev, Now: time.Now(), Tiles: d.tiles()}
	if v.Range, err = readRange(c, show, v.Now); err != nil {
		return v, err
	}
	if dev.GroupID != 0 { // a group the viewer does not see stays unnamed
		g, err := d.core.Fleet.Groups.Get(actor, dev.GroupID)
		switch {
		case err == nil:
			v.Group = g.Name
		case model.ClassOf(err) != model.ClassNotFound:
			return v, err
		}
	}
	if dev.PositionID != 0 {
		latest, err := d.core.Fleet.Positions(actor, fleet.PositionQuery{IDs: []int64{dev.PositionID}})
		if err != nil {
			return v, err
		}
		v.Position = latest[0]
	}
	if v.History, err = d.loadHistory(actor, dev, v.Range); err != nil {
		return v, err
	}
	if v.Files, err = d.core.Fleet.DeviceFiles(actor, dev.ID, v.Range.Start, v.Range.End.Add(time.Nanosecond), maxVehicleFiles); err != nil {
		return v, err
	}
	if v.Office, err = d.loadVehicleOffice(actor, dev.ID); err != nil {
		return v, err
	}
	if v.Command, err = d.loadCommand(actor, dev); err != nil {
		return v, err
	}
	v.Data = vehicleData{ID: dev.ID, Status: dev.Status, RouteURL: v.Range.routeURL(dev.ID),
		SpeedFactor: show.SpeedValue(1), SpeedUnit: show.SpeedLabel(), DistFactor: show.DistanceValue(1),
		DistUnit: show.DistanceLabel(), Zone: v.Range.Start.Location().String(), TwelveHour: show.TwelveHour,
		LiveEvents: !v.Range.End.Before(v.Now), Attributes: keyAttributes}
	if p := v.Position; p != nil {
		v.Data.Position = &latLon{Lat: p.Latitude, Lon: p.Longitude}
	}
	return v, nil
}

// dayRange is whole days in the viewer's time zone, as the date picker
// gives them: from the start of From to the end of To.
type dayRange struct {
	From, To   string // YYYY-MM-DD
	Start, End time.Time
}

// maxRangeDays bounds a range: the page reads every position of it for
// the trips and stops.
const maxRangeDays = 31

// readRange reads the query's from and to.
func readRange(c *fiber.Ctx, show prefs.Display, now time.Time) (dayRange, error) {
	return parseRange(c.Query("from"), c.Query("to"), show, now)
}

// parseRange reads a range of dates in the viewer's zone (either empty:
// today).
func parseRange(fromText, toText string, show prefs.Display, now time.Time) (dayRange, error) {
	today := show.DayStart(now)
	r := dayRange{From: cmp.Or(strings.TrimSpace(fromText), show.DateOf(now)),
		To: cmp.Or(strings.TrimSpace(toText), show.DateOf(now))}
	from, errFrom := time.ParseInLocation(time.DateOnly, r.From, today.Location())
	to, errTo := time.ParseInLocation(time.DateOnly, r.To, today.Location())
	switch {
	case errFrom != nil || errTo != nil:
		return r, model.Invalid("from and to must be dates like 2026-03-01")
	case to.Before(from):
		return r, model.Invalid("to must not be before from")
	case from.AddDate(0, 0, maxRangeDays).Before(to.AddDate(0, 0, 1)):
		return r, model.Invalid("a range covers at most %d days", maxRangeDays)
	}
	r.Start, r.End = from, to.AddDate(0, 0, 1).Add(-time.Nanosecond)
	return r, nil
}

// Today reports whether the range is just today.
func (r dayRange) Today(now time.Time) bool {
	return r.From == r.To && r.From == now.In(r.Start.Location()).Format(time.DateOnly)
}

func (r dayRange) routeURL(deviceID int64) string {
	return vehicleURL(deviceID) + "/route?" + queryString("from", r.From, "to", r.To)
}

func vehicleURL(deviceID int64) string { return Prefix + "/fleet/devices/" + itoa(deviceID) }

// routePoint is one position of a route, as the replay shows it.
type routePoint struct {
	ID     int64     `json:"id"`
	Time   time.Time `json:"time"`
	Label  string    `json:"label"` // the time in the viewer's zone
	Lat    float64   `json:"lat"`
	Lon    float64   `json:"lon"`
	Speed  string    `json:"speed"` // in the viewer's unit
	Course float64   `json:"course"`
}

// routeAnswer is the route JSON: the range's positions in time order, at
// most maxRoutePoints (Truncated says some were left out).
type routeAnswer struct {
	From      string       `json:"from"`
	To        string       `json:"to"`
	Points    []routePoint `json:"points"`
	Truncated bool         `json:"truncated"`
}

// maxRoutePoints bounds the route JSON (a busy tracker sends a fix every
// few seconds: a month is far more than a browser needs to draw).
const maxRoutePoints = 20_000

var errEnough = errors.New("enough points")

// vehicleRoute answers the route of a range as JSON; problems are JSON
// too (400 for a bad range, 404 for a device the viewer does not see).
func (d *Dashboard) vehicleRoute(c *fiber.Ctx) error {
	ans, err := d.route(c)
	c.Set(fiber.HeaderCacheControl, "no-store")
	if err != nil {
		status, body := httpx.Classify(err)
		if status == fiber.StatusInternalServerError {
			return err
		}
		return c.Status(status).JSON(body)
	}
	return c.JSON(ans)
}

func (d *Dashboard) route(c *fiber.Ctx) (routeAnswer, error) {
	show := display(c)
	id, err := httpx.ParamID(c)
	if err != nil {
		return routeAnswer{}, err
	}
	r, err := readRange(c, show, time.Now())
	if err != nil {
		return routeAnswer{}, err
	}
	history, err := d.core.Fleet.PositionHistory(user(c), id, r.Start, r.End)
	if err != nil {
		return routeAnswer{}, err
	}
	ans := routeAnswer{From: r.From, To: r.To, Points: []routePoint{}}
	err = history.Each(func(p *model.Position) error {
		if len(ans.Points) == maxRoutePoints {
			ans.Truncated = true
			return errEnough
		}
		ans.Points = append(ans.Points, routePoint{ID: p.ID, Time: p.FixTime, Label: show.DateOf(p.FixTime) + " " + show.ClockText(p.FixTime),
			Lat: p.Latitude, Lon: p.Longitude, Speed: show.SpeedText(p.Speed), Course: p.Course})
		return nil
	})
	if errors.Is(err, errEnough) {
		err = nil
	}
	return ans, err
}
