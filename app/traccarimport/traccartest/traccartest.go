// Package traccartest is a fake Traccar server for tests of fleetd import
// traccar: the read side of Traccar's REST API (session, object lists with
// their all/userId/deviceId/groupId filters, positions, the events report)
// over a data set in Traccar's JSON, with Traccar's rules where the import
// depends on them: a session cookie, list filters that follow links
// (groups also through their subgroups), from/to inclusive, and at most
// report.maxPositions positions an answer.
package traccartest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Object is one Traccar object as its JSON has it.
type Object = map[string]any

// Link is a row of one of Traccar's permission tables (tc_user_device...):
// Owner ("user", "device", "group") OwnerID linked to Prop ("device",
// "geofence", "managedUser"...) PropID.
type Link struct {
	Owner   string
	OwnerID int64
	Prop    string
	PropID  int64
}

// Data is what the fake Traccar holds.
type Data struct {
	// Lists by API path: "users", "devices", "groups", "geofences",
	// "calendars", "notifications", "maintenance", "drivers",
	// "attributes/computed", "commands".
	Lists     map[string][]Object
	Passwords map[string]string // by e-mail
	Links     []Link
	Positions []Object
	Events    []Object
}

// Server is a running fake Traccar.
type Server struct {
	*httptest.Server
	// MaxPositions is report.maxPositions (0: no limit).
	MaxPositions int
	// Fail, when set, answers a request with the status it returns
	// (0: answer normally).
	Fail func(r *http.Request) int

	mu       sync.Mutex
	data     *Data
	sessions map[string]int64 // JSESSIONID -> user id
	requests map[string]int   // GET count by path
}

// New starts a fake Traccar serving data on 127.0.0.1.
func New(data *Data) *Server {
	s := &Server{data: data, sessions: map[string]int64{}, requests: map[string]int{}, MaxPositions: 50000}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Requests is how many GET requests path ("positions", "devices"...) got.
func (s *Server) Requests(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[path]
}

// EndSessions logs everyone out, as a Traccar restart does.
func (s *Server) EndSessions() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.sessions)
}

// Update changes the data under the server's lock.
func (s *Server) Update(fn func(*Data)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s.data)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if s.Fail != nil {
		if code := s.Fail(r); code != 0 {
			http.Error(w, "failure injected by the test", code)
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	path := strings.TrimPrefix(r.URL.Path, "/api/")
	if r.Method == http.MethodPost && path == "session" {
		s.login(w, r)
		return
	}
	if r.Method != http.MethodGet || !strings.HasPrefix(r.URL.Path, "/api/") {
		http.NotFound(w, r)
		return
	}
	s.requests[path]++
	me, ok := s.user(r)
	if !ok {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	q := r.URL.Query()
	var out any
	switch path {
	case "server":
		out = Object{"id": 1, "registration": false, "version": "6.6", "attributes": Object{}}
	case "positions":
		out = s.positions(q)
	case "reports/events":
		out = s.events(q)
	default:
		if _, ok := s.data.Lists[path]; !ok {
			http.NotFound(w, r)
			return
		}
		out = s.list(path, me, q)
	}
	if out == nil {
		// Traccar fails this way on an id it does not have
		http.Error(w, "NullPointerException", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	email, password := r.PostFormValue("email"), r.PostFormValue("password")
	for _, u := range s.data.Lists["users"] {
		if strings.EqualFold(u["email"].(string), email) && s.data.Passwords[u["email"].(string)] == password && password != "" {
			token := fmt.Sprintf("node0%xtest", len(s.sessions)+1)
			s.sessions[token] = id(u)
			http.SetCookie(w, &http.Cookie{Name: "JSESSIONID", Value: token, Path: "/", HttpOnly: true})
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(u)
			return
		}
	}
	w.WriteHeader(http.StatusUnauthorized)
}

func (s *Server) user(r *http.Request) (int64, bool) {
	c, err := r.Cookie("JSESSIONID")
	if err != nil {
		return 0, false
	}
	uid, ok := s.sessions[c.Value]
	return uid, ok
}

// kindOf is the permission kind a list path holds.
var kindOf = map[string]string{"users": "managedUser", "devices": "device", "groups": "group", "geofences": "geofence",
	"calendars": "calendar", "notifications": "notification", "maintenance": "maintenance", "drivers": "driver",
	"attributes/computed": "attribute", "commands": "command"}

func id(o Object) int64 {
	switch v := o["id"].(type) {
	case int:
		return int64(v)
	case int64:
		return v
	case float64:
		return int64(v)
	}
	return 0
}

func param(q map[string][]string, name string) int64 {
	if v := q[name]; len(v) > 0 {
		n, _ := strconv.ParseInt(v[0], 10, 64)
		return n
	}
	return 0
}

// linked are the ids of kind linked to (owner, ownerID).
func (s *Server) linked(owner string, ownerID int64, kind string) []int64 {
	out := []int64{}
	for _, l := range s.data.Links {
		if l.Owner == owner && l.OwnerID == ownerID && l.Prop == kind {
			out = append(out, l.PropID)
		}
	}
	return out
}

// withSubgroups adds to groups their subgroups, as Traccar's permission
// query does for lists of groups.
func (s *Server) withSubgroups(groups []int64) []int64 {
	for changed := true; changed; {
		changed = false
		for _, g := range s.data.Lists["groups"] {
			parent, _ := g["groupId"].(int)
			if parent != 0 && slices.Contains(groups, int64(parent)) && !slices.Contains(groups, id(g)) {
				groups, changed = append(groups, id(g)), true
			}
		}
	}
	return groups
}

// list follows ExtendedObjectResource and SimpleObjectResource: all=true is
// every object (for an administrator); userId the user's own links
// (groups with their subgroups); deviceId and groupId narrow to the
// objects linked to that device or group.
func (s *Server) list(path string, me int64, q map[string][]string) []Object {
	kind := kindOf[path]
	var set []int64
	all := q["all"] != nil && q["all"][0] == "true"
	userID := param(q, "userId")
	switch {
	case path == "users" && userID == 0:
		all = true
	case !all && userID == 0:
		userID = me
	}
	if !all {
		set = s.linked("user", userID, kind)
		if kind == "group" {
			set = s.withSubgroups(set)
		}
	}
	for _, owner := range []string{"device", "group"} {
		if oid := param(q, owner+"Id"); oid != 0 && path != "devices" && path != "users" {
			narrowed := []int64{}
			for _, pid := range s.linked(owner, oid, kind) {
				if set == nil || slices.Contains(set, pid) {
					narrowed = append(narrowed, pid)
				}
			}
			set = narrowed
		}
	}
	out := []Object{}
	for _, o := range s.data.Lists[path] {
		if set == nil || slices.Contains(set, id(o)) {
			out = append(out, o)
		}
	}
	return out
}

func parseTime(v []string) (time.Time, bool) {
	if len(v) == 0 {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, v[0])
	return t, err == nil
}

func timeOf(o Object, field string) time.Time {
	t, _ := time.Parse(time.RFC3339, o[field].(string))
	return t
}

// positions follows PositionResource: by id, or a device's between from
// and to (inclusive) in fix time order, at most MaxPositions.
func (s *Server) positions(q map[string][]string) []Object {
	out := []Object{}
	if ids := q["id"]; len(ids) > 0 {
		for _, v := range ids {
			n, _ := strconv.ParseInt(v, 10, 64)
			i := slices.IndexFunc(s.data.Positions, func(p Object) bool { return id(p) == n })
			if i < 0 {
				return nil
			}
			out = append(out, s.data.Positions[i])
		}
		return out
	}
	from, ok1 := parseTime(q["from"])
	to, ok2 := parseTime(q["to"])
	device := param(q, "deviceId")
	if !ok1 || !ok2 || device == 0 {
		return out
	}
	for _, p := range s.data.Positions {
		if t := timeOf(p, "fixTime"); id(Object{"id": p["deviceId"]}) == device && !t.Before(from) && !t.After(to) {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b Object) int { return timeOf(a, "fixTime").Compare(timeOf(b, "fixTime")) })
	if s.MaxPositions > 0 && len(out) > s.MaxPositions {
		out = out[:s.MaxPositions]
	}
	return out
}

// events follows the events report: a device's between from and to.
func (s *Server) events(q map[string][]string) []Object {
	from, _ := parseTime(q["from"])
	to, _ := parseTime(q["to"])
	device := param(q, "deviceId")
	out := []Object{}
	for _, e := range s.data.Events {
		if t := timeOf(e, "eventTime"); id(Object{"id": e["deviceId"]}) == device && !t.Before(from) && !t.After(to) {
			out = append(out, e)
		}
	}
	return out
}

// ---- the data set ----

// Traccar writes times like this (Jackson's StdDateFormat).
const timeLayout = "2006-01-02T15:04:05.000-07:00"

func ts(t time.Time) string { return t.UTC().Format(timeLayout) }

// WorkingHours is the calendar's iCalendar document: weekdays 08:00 to
// 18:00 in Berlin, as Traccar's web app writes one.
const WorkingHours = "BEGIN:VCALENDAR\r\nPRODID:-//Traccar//NONSGML Traccar//EN\r\nVERSION:2.0\r\n" +
	"BEGIN:VEVENT\r\nUID:7c2c7e0e-2f0b-4a4e-9a51-0f1b2c3d4e5f\r\n" +
	"DTSTART;TZID=Europe/Berlin:20260105T080000\r\nDTEND;TZID=Europe/Berlin:20260105T180000\r\n" +
	"RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR\r\nSUMMARY:Working hours\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"

// Day is the day of the data set's positions.
var Day = time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)

// Ids of the data set (Traccar's).
const (
	AdminID, DispatcherID         = 1, 2
	CompanyID, NorthID, VansID    = 1, 2, 3 // groups: Company > North depot > Vans North
	VanID, TruckID, CarID         = 10, 11, 12
	DepotID, ParkID, RouteID      = 20, 21, 22 // geofences; Route B17 is a LINESTRING fleetd refuses
	CalendarID                    = 1
	AlarmID, EnterID              = 30, 31 // notifications
	OilID                         = 40
	AnnaID, JonasID               = 50, 51
	IgnitionAttrID, FuelAttrID    = 60, 61
	EngineStopID, CustomRebootID  = 70, 71
	AdminEmail, DispatcherEmail   = "admin@example.com", "dana@example.com"
	AdminPassword, DispatcherPass = "Trac-car secret 1", "dana's own"
)

// Van1Positions, Truck7Positions are how many positions the data set has
// of each device (Car 3 has none).
const (
	Van1Positions   = 145 // every 5 minutes from 06:00 to 18:00
	Truck7Positions = 26  // every 10 minutes from 08:00 to 12:00, and one the next morning
)

// Fleet is a small company's Traccar: two users, three devices in a
// group hierarchy, geofences, a calendar, notifications, maintenance,
// drivers, computed attributes, saved commands, their links, and a day of
// positions and events.
func Fleet() *Data {
	d := &Data{Lists: map[string][]Object{}, Passwords: map[string]string{AdminEmail: AdminPassword, DispatcherEmail: DispatcherPass}}
	d.Lists["users"] = []Object{
		{"id": AdminID, "name": "Fleet Admin", "login": nil, "email": AdminEmail, "phone": nil, "readonly": false, "administrator": true,
			"map": nil, "latitude": 52.52, "longitude": 13.405, "zoom": 11, "coordinateFormat": nil, "disabled": false,
			"expirationTime": nil, "deviceLimit": -1, "userLimit": 0, "deviceReadonly": false, "limitCommands": false,
			"disableReports": false, "fixedEmail": false, "poiLayer": nil, "totpKey": nil, "temporary": false,
			"password": nil, "attributes": Object{"timezone": "Europe/Berlin", "speedUnit": "kmh"}},
		{"id": DispatcherID, "name": "Dana Dispatcher", "login": nil, "email": DispatcherEmail, "phone": "+49 151 23456789",
			"readonly": false, "administrator": false, "map": "osm", "latitude": 0, "longitude": 0, "zoom": 0,
			"coordinateFormat": "ddm", "disabled": false, "expirationTime": "2027-12-31T23:00:00.000+00:00",
			"deviceLimit": -1, "userLimit": 0, "deviceReadonly": true, "limitCommands": true, "disableReports": false,
			"fixedEmail": false, "poiLayer": nil, "totpKey": nil, "temporary": false, "password": nil,
			"attributes": Object{"notificationTokens": "", "distanceUnit": "km"}},
	}
	d.Lists["groups"] = []Object{
		{"id": CompanyID, "name": "Company", "groupId": 0, "attributes": Object{}},
		{"id": VansID, "name": "Vans North", "groupId": NorthID, "attributes": Object{"speedLimit": 48.6}},
		{"id": NorthID, "name": "North depot", "groupId": CompanyID, "attributes": Object{}},
	}
	d.Lists["calendars"] = []Object{
		{"id": CalendarID, "name": "Working hours", "data": base64.StdEncoding.EncodeToString([]byte(WorkingHours)), "attributes": Object{}},
	}
	d.Lists["devices"] = []Object{
		{"id": VanID, "name": "Van 1", "uniqueId": "359710049085611", "status": "online", "disabled": false,
			"lastUpdate": ts(Day.Add(18 * time.Hour)), "positionId": 1144, "groupId": VansID, "calendarId": 0,
			"phone": "+49 160 1111111", "model": "FMB920", "contact": "Workshop", "category": "van", "expirationTime": nil,
			"attributes": Object{"speedLimit": 48.6, "deviceInactivityStart": 86400000}},
		{"id": TruckID, "name": "Truck 7", "uniqueId": "862205041234567", "status": "offline", "disabled": false,
			"lastUpdate": ts(Day.Add(31 * time.Hour)), "positionId": 2025, "groupId": NorthID, "calendarId": 0,
			"phone": nil, "model": "GT06N", "contact": nil, "category": "truck", "expirationTime": nil, "attributes": Object{}},
		{"id": CarID, "name": "Car 3", "uniqueId": "4209917", "status": "unknown", "disabled": false, "lastUpdate": nil,
			"positionId": 0, "groupId": 0, "calendarId": CalendarID, "phone": nil, "model": nil, "contact": nil, "category": "car",
			"expirationTime": "2027-01-01T00:00:00.000+00:00", "attributes": Object{}},
	}
	d.Lists["geofences"] = []Object{
		{"id": DepotID, "name": "Depot North", "description": "Yard and workshop", "area": "CIRCLE (52.5200 13.4050, 150)",
			"calendarId": CalendarID, "attributes": Object{"color": "#3f51b5", "speedLimit": 10.8}},
		{"id": ParkID, "name": "Customer park", "description": "",
			"area": "POLYGON ((52.5100 13.3800, 52.5150 13.3900, 52.5050 13.3950, 52.5100 13.3800))", "calendarId": 0,
			"attributes": Object{}},
		{"id": RouteID, "name": "Route B17", "description": "corridor", "area": "LINESTRING (52.5000 13.3000, 52.6000 13.4000)",
			"calendarId": 0, "attributes": Object{"polylineDistance": 50}},
	}
	d.Lists["commands"] = []Object{
		{"id": EngineStopID, "deviceId": 0, "description": "Engine stop", "type": "engineStop", "textChannel": false, "attributes": Object{}},
		{"id": CustomRebootID, "deviceId": 0, "description": "Reboot", "type": "custom", "textChannel": true,
			"attributes": Object{"data": "cpureset"}},
	}
	d.Lists["notifications"] = []Object{
		{"id": AlarmID, "type": "alarm", "description": "SOS and power cut", "always": false, "commandId": 0,
			"notificators": "web,mail", "calendarId": CalendarID, "attributes": Object{"alarms": "sos,powerCut"}},
		{"id": EnterID, "type": "geofenceEnter", "description": nil, "always": true, "commandId": EngineStopID,
			"notificators": "web", "calendarId": 0, "attributes": Object{}},
	}
	d.Lists["maintenance"] = []Object{
		{"id": OilID, "name": "Oil change", "type": "totalDistance", "start": 0.0, "period": 15000000.0, "attributes": Object{}},
	}
	d.Lists["drivers"] = []Object{
		{"id": AnnaID, "name": "Anna Schmidt", "uniqueId": "A1B2C3D4", "attributes": Object{}},
		{"id": JonasID, "name": "Jonas Weber", "uniqueId": "E5F6A7B8", "attributes": Object{"phone": "+49 170 2222222"}},
	}
	d.Lists["attributes/computed"] = []Object{
		{"id": IgnitionAttrID, "description": "Ignition from DIN1", "attribute": "ignition", "expression": "io239 == 1",
			"type": "boolean", "priority": 0},
		{"id": FuelAttrID, "description": "Fuel in litres", "attribute": "fuel", "expression": "adc1 * 0.0125",
			"type": "number", "priority": 10},
	}
	// Traccar links each object to the user who made it (the admin), and
	// the admin linked the dispatcher to what she works with.
	for path, kind := range kindOf {
		if path == "users" {
			continue
		}
		for _, o := range d.Lists[path] {
			d.Links = append(d.Links, Link{"user", AdminID, kind, id(o)})
		}
	}
	d.Links = append(d.Links,
		Link{"user", AdminID, "managedUser", DispatcherID},
		Link{"user", DispatcherID, "device", CarID}, Link{"user", DispatcherID, "group", NorthID},
		Link{"user", DispatcherID, "geofence", DepotID}, Link{"user", DispatcherID, "geofence", RouteID},
		Link{"user", DispatcherID, "notification", AlarmID}, Link{"user", DispatcherID, "notification", EnterID},
		Link{"user", DispatcherID, "calendar", CalendarID}, Link{"user", DispatcherID, "driver", AnnaID},
		Link{"user", DispatcherID, "attribute", FuelAttrID}, Link{"user", DispatcherID, "command", EngineStopID},
		Link{"user", DispatcherID, "maintenance", OilID},
		Link{"device", VanID, "geofence", DepotID}, Link{"device", VanID, "driver", AnnaID},
		Link{"device", VanID, "attribute", IgnitionAttrID}, Link{"device", VanID, "maintenance", OilID},
		Link{"group", NorthID, "geofence", ParkID}, Link{"group", NorthID, "notification", AlarmID},
		Link{"group", NorthID, "command", CustomRebootID}, Link{"group", NorthID, "attribute", FuelAttrID},
	)
	d.Positions, d.Events = history()
	return d
}

// history is a day of the van's and the truck's positions with their
// events.
func history() (positions, events []Object) {
	total := 125000.0
	for i := range Van1Positions {
		t := Day.Add(6*time.Hour + time.Duration(i)*5*time.Minute)
		lat := 52.5200 + 0.02*math.Sin(float64(i)/15)
		lon := 13.4050 + 0.03*math.Sin(float64(i)/23)
		speed := 18.5 + 10*math.Abs(math.Sin(float64(i)/7))
		if i < 4 || i == Van1Positions-1 {
			speed = 0
		}
		total += speed * 0.514444 * 300
		var geofences any
		if i < 4 {
			geofences = []int{DepotID}
		}
		positions = append(positions, Object{
			"id": 1000 + i, "deviceId": VanID, "protocol": "teltonika", "serverTime": ts(t.Add(2 * time.Second)),
			"deviceTime": ts(t), "fixTime": ts(t), "valid": true, "latitude": round(lat, 6), "longitude": round(lon, 6),
			"altitude": 41.0, "speed": round(speed, 2), "course": float64((i * 37) % 360), "address": nil, "accuracy": 0.0,
			"network": nil, "geofenceIds": geofences,
			"attributes": Object{"priority": 0, "sat": 11 + i%3, "event": 0, "ignition": i != Van1Positions-1, "motion": speed > 0,
				"io239": map[bool]int{true: 1, false: 0}[i != Van1Positions-1], "adc1": 1840 - i, "power": 13.9, "battery": 4.1,
				"hdop": 0.8, "odometer": int(total), "distance": round(speed*0.514444*300, 2), "totalDistance": round(total, 2),
				"hours": 3600000 * (1200 + i/12)},
		})
	}
	for i := range Truck7Positions {
		t := Day.Add(8*time.Hour + time.Duration(i)*10*time.Minute)
		if i == Truck7Positions-1 {
			t = Day.Add(31*time.Hour + 30*time.Minute)
		}
		positions = append(positions, Object{
			"id": 2000 + i, "deviceId": TruckID, "protocol": "gt06", "serverTime": ts(t.Add(time.Second)),
			"deviceTime": ts(t), "fixTime": ts(t), "valid": i%9 != 5, "latitude": round(52.48+0.001*float64(i), 6),
			"longitude": round(13.44-0.0015*float64(i), 6), "altitude": 0.0, "speed": 21.6, "course": 270.0,
			"address": "Karl-Marx-Straße, Berlin", "accuracy": 0.0,
			"network": Object{"radioType": "gsm", "considerIp": false, "cellTowers": []Object{{"cellId": 4711, "locationAreaCode": 1000,
				"mobileCountryCode": 262, "mobileNetworkCode": 2, "signalStrength": -75}}},
			"geofenceIds": nil,
			"attributes":  Object{"sat": 9, "ignition": true, "motion": true, "distance": 1850.5, "totalDistance": 88000.0 + 1850.5*float64(i)},
		})
	}
	ev := func(id int, kind string, t time.Time, device, position, geofence, maintenance int, attrs Object) Object {
		return Object{"id": id, "type": kind, "eventTime": ts(t), "deviceId": device, "positionId": position,
			"geofenceId": geofence, "maintenanceId": maintenance, "attributes": attrs}
	}
	events = []Object{
		ev(500, "deviceOnline", Day.Add(5*time.Hour+59*time.Minute+30*time.Second), VanID, 0, 0, 0, Object{}),
		ev(501, "ignitionOn", Day.Add(6*time.Hour), VanID, 1000, 0, 0, Object{}),
		ev(502, "geofenceExit", Day.Add(6*time.Hour+20*time.Minute), VanID, 1004, DepotID, 0, Object{}),
		ev(503, "alarm", Day.Add(12*time.Hour), VanID, 1072, 0, 0, Object{"alarm": "sos"}),
		ev(504, "maintenance", Day.Add(15*time.Hour), VanID, 1108, 0, OilID, Object{}),
		ev(505, "ignitionOff", Day.Add(18*time.Hour), VanID, 1144, 0, 0, Object{}),
		ev(506, "deviceOverspeed", Day.Add(9*time.Hour), TruckID, 2006, 0, 0, Object{"speed": 21.6, "speedLimit": 16.2}),
		// the geofence fleetd refuses: the event keeps no geofence
		ev(507, "geofenceEnter", Day.Add(10*time.Hour), TruckID, 2012, RouteID, 0, Object{}),
	}
	return positions, events
}

func round(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(v*p) / p
}
