package api2_test

import (
	"fmt"
	"testing"

	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// aliceRecords: alice serviced her car on the 1st of months 1..12 of 2024
// ("service 1".."service 12"; the March one has file f1); bob his van once.
func aliceRecords(e *officeEnv) {
	e.file("f1", "alice")
	for m := 1; m <= 12; m++ {
		var files []string
		if m == 3 {
			files = []string{"f1"}
		}
		e.record(fmt.Sprintf("s%d", m), "alice", fmt.Sprintf("service %d", m), days(0).AddDate(-1, m-6, 0), files...)
	}
	e.record("sb", "bob", "van service", days(0))
}

// recordTitles checks L1's documents in order.
func recordTitles(want ...string) func(*testing.T, *officeEnv, *webtest.Response) {
	return listTitles("documents", want...)
}

func TestServiceHistory(t *testing.T) {
	runOfficeScenarios(t, []officeScenario{
		{name: "create", as: "alice", method: "POST", path: "/api2/services/history",
			body:   `{"title":"Oil","vehicleId":"{car}","serviceDate":"2025-05-30","odometer":12000.5,"expenditure":80,"serviceTasks":[" Oil change ","oil change",""]}`,
			status: 201,
			want: []string{`"id":"`, `"vehicleId":"{car}"`, `"serviceDate":"2025-05-30T00:00:00Z"`, `"odometer":12000.5`,
				`"serviceTasks":["Oil change"]`, `"userId":"{alice}"`, `"$createdAt":"2025-06-01T09:00:00Z"`}},
		{name: "required fields", as: "alice", method: "POST", path: "/api2/services/history",
			body: `{"title":"Oil","vehicleId":"{car}","serviceDate":"2025-05-30"}`, status: 400,
			want: []string{"odometer is required"}, unchanged: true},
		{name: "serviceDate required", as: "alice", method: "POST", path: "/api2/services/history",
			body: `{"title":"Oil","vehicleId":"{car}","odometer":1}`, status: 400, want: []string{"serviceDate is required"}},
		{name: "negative odometer", as: "alice", method: "POST", path: "/api2/services/history",
			body: `{"title":"Oil","vehicleId":"{car}","serviceDate":"2025-05-30","odometer":-1}`, status: 400},
		{name: "another user's vehicle", as: "bob", method: "POST", path: "/api2/services/history",
			body:   `{"title":"Oil","vehicleId":"{car}","serviceDate":"2025-05-30","odometer":1}`,
			status: 400, want: []string{"vehicleId {car} is not a vehicle you can see"}, unchanged: true},

		{name: "list: latest first, page 1 of 10", as: "alice", method: "GET", path: "/api2/services/history",
			prepare: aliceRecords, status: 200,
			want: []string{`"pagination":{"currentPage":1,"totalPages":2,"totalRecords":12}`}, absent: []string{"van service"},
			check: recordTitles("service 12", "service 11", "service 10", "service 9", "service 8", "service 7",
				"service 6", "service 5", "service 4", "service 3")},
		{name: "list: page 3 of 5", as: "alice", method: "GET", path: "/api2/services/history?limit=5&page=3",
			prepare: aliceRecords, status: 200,
			want:  []string{`"pagination":{"currentPage":3,"totalPages":3,"totalRecords":12}`},
			check: recordTitles("service 2", "service 1")},
		{name: "list: from and to are inclusive", as: "alice", method: "GET",
			path:    "/api2/services/history?from=2024-03-01T00:00:00Z&to=2024-05-01",
			prepare: aliceRecords, status: 200, want: []string{`"totalRecords":3`},
			check: recordTitles("service 5", "service 4", "service 3")},
		{name: "list: by vehicle", as: "alice", method: "GET", path: "/api2/services/history?vehicleId={van}",
			prepare: aliceRecords, status: 200,
			want: []string{`"documents":[]`, `"pagination":{"currentPage":1,"totalPages":0,"totalRecords":0}`}},
		{name: "list: bob's own", as: "bob", method: "GET", path: "/api2/services/history?vehicleId={van}",
			prepare: aliceRecords, status: 200, want: []string{`"totalRecords":1`}, check: recordTitles("van service")},
		{name: "list: bad from", as: "alice", method: "GET", path: "/api2/services/history?from=yesterday", status: 400},
		{name: "list: from after to", as: "alice", method: "GET", path: "/api2/services/history?from=2024-05-01&to=2024-03-01", status: 400},
		{name: "list: bad vehicleId", as: "alice", method: "GET", path: "/api2/services/history?vehicleId=x", status: 400},

		{name: "get own", as: "alice", method: "GET", path: "/api2/services/history/{s3}", prepare: aliceRecords,
			status: 200, want: []string{`"id":"{s3}"`, `"title":"service 3"`, `"fileIds":["{f1}"]`}},
		{name: "another user's record", as: "bob", method: "GET", path: "/api2/services/history/{s3}",
			prepare: aliceRecords, status: 404, absent: []string{"service 3"}},

		{name: "update", as: "alice", method: "PUT", path: "/api2/services/history/{s3}", prepare: aliceRecords,
			body: `{"notes":"brakes squeak","expenditure":45,"userId":"{bob}"}`, status: 200,
			want: []string{`"message":"Record updated successfully"`},
			check: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				r, err := e.core.Office.ServiceRecord(e.user("alice"), e.ids["s3"])
				e.must(err)
				if r.Notes != "brakes squeak" || *r.Expenditure != 45 || r.Title != "service 3" || r.Owner() != e.ids["alice"] ||
					len(r.FileIDs) != 1 {
					t.Errorf("stored %+v", r)
				}
			}},
		{name: "update to an invisible vehicle", as: "alice", method: "PUT", path: "/api2/services/history/{s3}",
			prepare: aliceRecords, body: `{"vehicleId":"{van}"}`, status: 400, unchanged: true},
		{name: "update of another user's record", as: "bob", method: "PUT", path: "/api2/services/history/{s3}",
			prepare: aliceRecords, body: `{"notes":"x"}`, status: 404, unchanged: true},
		{name: "delete with its files", as: "alice", method: "DELETE", path: "/api2/services/history/{s3}",
			prepare: aliceRecords, status: 200, want: []string{`"message":"Record deleted successfully"`},
			check: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				list, err := e.core.Office.ServiceRecords(e.user("alice"), office.ServiceQuery{})
				e.must(err)
				if len(list) != 11 || len(e.onDisk()) != 0 {
					t.Errorf("%d records, disk %v", len(list), e.onDisk())
				}
			}},
		{name: "delete of another user's record", as: "bob", method: "DELETE", path: "/api2/services/history/{s3}",
			prepare: aliceRecords, status: 404, unchanged: true},
		{name: "no delete by a read-only account", as: "alice", method: "DELETE", path: "/api2/services/history/{s3}",
			prepare: func(e *officeEnv) { aliceRecords(e); readonlyAlice(e) }, status: 403, unchanged: true},
	})
}

func TestServiceTasks(t *testing.T) {
	bobTask := func(e *officeEnv) {
		_, err := e.core.Office.CreateServiceTask(e.user("bob"), "Tachograph check")
		e.must(err)
	}
	runOfficeScenarios(t, []officeScenario{
		{name: "public tasks are seeded", as: "alice", method: "GET", path: "/api2/services/task", status: 200,
			want: []string{`"label":"Oil change","userId":null`, `"label":"Tyre rotation"`, `"label":"Brake inspection"`},
			check: func(t *testing.T, e *officeEnv, r *webtest.Response) {
				var list []office.ServiceTask
				r.Decode(t, &list)
				if len(list) != len(office.DefaultServiceTasks) {
					t.Errorf("%d tasks", len(list))
				}
				again, err := e.core.Office.ServiceTasks(e.user("bob"))
				e.must(err)
				if len(again) != len(list) {
					t.Errorf("seeded twice: %d", len(again))
				}
			}},
		{name: "create", as: "alice", method: "POST", path: "/api2/services/task", body: `{"label":" Trailer hitch "}`,
			status: 201, want: []string{`"label":"Trailer hitch"`, `"userId":"{alice}"`, `"id":"`}},
		{name: "label required", as: "alice", method: "POST", path: "/api2/services/task", body: `{}`, status: 400,
			want: []string{"label is required"}},
		{name: "a public label again", as: "alice", method: "POST", path: "/api2/services/task", body: `{"label":"oil CHANGE"}`,
			status: 400, want: []string{"already exists"}},
		{name: "another user's label is free", as: "alice", method: "POST", path: "/api2/services/task",
			prepare: bobTask, body: `{"label":"Tachograph check"}`, status: 201},
		{name: "own and public, never others'", as: "alice", method: "GET", path: "/api2/services/task",
			prepare: func(e *officeEnv) {
				bobTask(e)
				_, err := e.core.Office.CreateServiceTask(e.user("alice"), "Trailer hitch")
				e.must(err)
			},
			status: 200, want: []string{`"label":"Trailer hitch","userId":"{alice}"`}, absent: []string{"Tachograph"}},
		{name: "delete own", as: "bob", method: "DELETE", path: "/api2/services/task", prepare: bobTask,
			body: `{"label":"tachograph CHECK"}`, status: 200, want: []string{`"message":"Task deleted"`},
			check: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				list, err := e.core.Office.ServiceTasks(e.user("bob"))
				e.must(err)
				if len(list) != len(office.DefaultServiceTasks) {
					t.Errorf("%d tasks left", len(list))
				}
			}},
		{name: "delete by query", as: "bob", method: "DELETE", path: "/api2/services/task?label=Tachograph%20check",
			prepare: bobTask, status: 200},
		{name: "another user's task stays", as: "alice", method: "DELETE", path: "/api2/services/task", prepare: bobTask,
			body: `{"label":"Tachograph check"}`, status: 404, unchanged: true},
		{name: "a public task stays", as: "alice", method: "DELETE", path: "/api2/services/task", prepare: bobTask,
			body: `{"label":"Oil change"}`, status: 404, unchanged: true},
		{name: "label required to delete", as: "alice", method: "DELETE", path: "/api2/services/task", status: 400},
	})
}
