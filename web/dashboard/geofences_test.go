package dashboard_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

func (e *env) geofences(who string) []*model.Geofence {
	e.t.Helper()
	list, err := e.Core.Fleet.Geofences.List(e.users[who], model.Query{})
	if err != nil {
		e.t.Fatal(err)
	}
	return list
}

func TestGeofenceForm(t *testing.T) {
	cases := []struct {
		name, area string
		status     int
		want       string
	}{
		{"circle", "CIRCLE (53.55 9.99, 250)", 303, ""},
		{"polygon", "POLYGON ((53.5 9.9, 53.6 10.0, 53.5 10.1, 53.5 9.9))", 303, ""},
		{"longitude first", "POLYGON ((9.9 53.5, 10.0 153.6, 190.1 53.5))", 422, "latitude must be within"},
		{"no radius", "CIRCLE (53.55 9.99)", 422, "expected (lat lon, radius)"},
		{"two points", "POLYGON ((53.5 9.9, 53.6 10.0))", 422, "polygon needs 3"},
		{"not WKT", "Hamburg harbour", 422, "expected CIRCLE"},
		{"empty", "", 422, "name and area are required"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			form := url.Values{"name": {"Harbour"}, "description": {"Dock gate"}, "area": {c.area}, "devices": {itoa(e.IDs["van3"])}}
			res := e.as("manager").post("/dashboard/geofences", form)
			if res.Status != c.status || !strings.Contains(res.Body, c.want) {
				t.Fatalf("%d %.600s", res.Status, res.Body)
			}
			list := e.geofences("manager")
			if c.status != 303 {
				if len(list) != 0 {
					t.Errorf("stored: %+v", list[0])
				}
				webtest.Contains(t, "form kept", res.Body, `value="Harbour"`, c.area)
				return
			}
			if len(list) != 1 || list[0].Area != c.area || list[0].Description != "Dock gate" {
				t.Fatalf("stored: %+v", list)
			}
			linked, err := e.Core.Fleet.Owners(e.users["manager"], model.KindGeofence, list[0].ID, model.KindDevice)
			if err != nil || len(linked) != 1 || linked[0] != e.IDs["van3"] {
				t.Errorf("linked: %v %v", linked, err)
			}
		})
	}
}

func TestGeofenceEdit(t *testing.T) {
	e := newEnv(t)
	manager := e.as("manager")
	form := url.Values{"name": {"Depot"}, "area": {"CIRCLE (53.55 9.99, 250)"}, "devices": {itoa(e.IDs["van3"])}}
	if res := manager.post("/dashboard/geofences", form); res.Status != 303 {
		t.Fatalf("create: %d %.400s", res.Status, res.Body)
	}
	g := e.geofences("manager")[0]
	path := "/dashboard/geofences/" + itoa(g.ID)
	webtest.Contains(t, "list", manager.get("/dashboard/geofences").Body, "Depot", "circle, radius 0.25 km", `"area":"CIRCLE (53.55 9.99, 250)"`, `{"name":"Van Three","lat":53.55,"lon":9.99}`)
	webtest.Contains(t, "form", manager.get(path).Body, `value="Depot"`, "CIRCLE (53.55 9.99, 250)</textarea>", `value="`+itoa(e.IDs["van3"])+`" checked`)

	// Reshaped and unlinked.
	form = url.Values{"name": {"Depot north"}, "area": {"POLYGON ((53.5 9.9, 53.6 10.0, 53.5 10.1))"}}
	if res := manager.post(path, form); res.Status != 303 {
		t.Fatalf("update: %d %.400s", res.Status, res.Body)
	}
	g = e.geofences("manager")[0]
	if g.Name != "Depot north" || !strings.HasPrefix(g.Area, "POLYGON") {
		t.Errorf("updated: %+v", g)
	}
	webtest.Contains(t, "list", manager.get("/dashboard/geofences").Body, "polygon, 3 corners")
	if linked, _ := e.Core.Fleet.Owners(e.users["manager"], model.KindGeofence, g.ID, model.KindDevice); len(linked) != 0 {
		t.Errorf("still linked: %v", linked)
	}

	// The administrator's truck is not the manager's to link; another's
	// geofence is not found.
	form.Set("devices", itoa(e.IDs["truck1"]))
	if res := manager.post(path, form); res.Status != 404 {
		t.Errorf("link another's vehicle: %d", res.Status)
	}
	admins, err := e.Core.Fleet.Geofences.Create(e.users["admin"], func(g *model.Geofence) error {
		g.Name, g.Area = "Admin yard", "CIRCLE (52.5 13.4, 100)"
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	other := "/dashboard/geofences/" + itoa(admins.ID)
	for _, res := range []*webtest.Response{manager.get(other), manager.post(other, form), manager.post(other+"/delete", nil)} {
		if res.Status != 404 {
			t.Errorf("manager on admin's geofence: %d", res.Status)
		}
	}
	if strings.Contains(manager.get("/dashboard/geofences").Body, "Admin yard") {
		t.Error("manager's list shows admin's geofence")
	}

	if res := manager.post(path+"/delete", nil); res.Status != 303 || len(e.geofences("manager")) != 0 {
		t.Errorf("delete: %d", res.Status)
	}
}
