package dashboard_test

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// alarmRow is an event row of the alerts page's list, by its alarm kind.
var alarmRow = regexp.MustCompile(`alarm (kind\d\d)`)

// The event list pages through every event exactly once, newest first,
// 20 a page, down to the deepest page the core reads.
func TestAlertEventPages(t *testing.T) {
	e := newEnv(t)
	var want []string
	// Newer than the seeded vehicles' events (they come after, on page 3).
	for i := range 45 {
		kind := fmt.Sprintf("kind%02d", i)
		want = append(want, kind)
		ev := &model.Event{Type: model.EventAlarm, DeviceID: e.IDs["truck1"], EventTime: e.now.Add(time.Hour - time.Duration(i)*time.Minute),
			Attributes: model.Attributes{"alarm": kind}}
		if err := e.Core.Store().Update(func(tx model.Tx) error { return tx.AddEvent(ev) }); err != nil {
			t.Fatal(err)
		}
	}
	admin := e.as("admin")
	var shown []string
	for _, c := range []struct {
		page  int
		rows  int
		older bool
	}{{1, 20, true}, {2, 20, true}, {3, 5, false}} {
		res := admin.get("/dashboard/alerts?page=" + strconv.Itoa(c.page))
		var rows []string
		for _, m := range alarmRow.FindAllStringSubmatch(res.Body, -1) {
			rows = append(rows, m[1])
		}
		if res.Status != 200 || len(rows) != c.rows || strings.Contains(res.Body, ">Older<") != c.older {
			t.Errorf("page %d: %d, %d rows %v, older link %v", c.page, res.Status, len(rows), rows, !c.older)
		}
		shown = append(shown, rows...)
	}
	if !slices.Equal(shown, want) {
		t.Errorf("pages 1-3 show\n%v\nwant\n%v", shown, want)
	}
	for page, status := range map[string]int{"480": 200, "500": 200, "501": 400, "0": 400} {
		if res := admin.get("/dashboard/alerts?page=" + page); res.Status != status {
			t.Errorf("page %s: %d, want %d", page, res.Status, status)
		}
	}
}

// ticked is what a browser submits of a page's ticked checkboxes.
var ticked = regexp.MustCompile(`<input type="checkbox" name="(\w+)" value="([^"]*)" checked>`)

// Alarm kinds the form does not list (a vendor's, or made through the
// API) show ticked and survive a save from the dashboard.
func TestAlertKeepsUnlistedAlarmKinds(t *testing.T) {
	e := newEnv(t)
	n, err := e.Core.Fleet.Notifications.Create(e.users["manager"], func(n *model.Notification) error {
		n.Type, n.Notificators, n.Description = model.EventAlarm, model.NotifyWeb, "Alarms"
		n.Attributes = model.Attributes{"alarms": "sos,bonnet,someVendorKind"}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	manager := e.as("manager")
	path := "/dashboard/alerts/" + itoa(n.ID)
	page := manager.get(path).Body
	form := url.Values{"type": {model.EventAlarm}, "description": {"Alarms, renamed"}}
	for _, m := range ticked.FindAllStringSubmatch(page, -1) {
		form.Add(m[1], m[2])
	}
	if got := form["alarms"]; !slices.Equal(got, []string{"sos", "bonnet", "someVendorKind"}) {
		t.Errorf("ticked alarm kinds: %v", got)
	}
	if res := manager.post(path, form); res.Status != 303 {
		t.Fatalf("save: %d %.400s", res.Status, res.Body)
	}
	if got := e.onlyAlert("manager"); got.Attributes["alarms"] != "sos,bonnet,someVendorKind" || got.Description != "Alarms, renamed" {
		t.Errorf("after save: %q %q", got.Attributes["alarms"], got.Description)
	}
}
