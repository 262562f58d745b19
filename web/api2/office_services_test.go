package api2_test

import (
	"fmt"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// aliceRecords: alice serviced her car on the 1st of months 1..12 of 2024
// ("service 1".."service 12"; the March one has file f1); bob his van once.
func aliceRecords(t *testing.T, e *officeEnv) {
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
	runOffice(t, []officeScenario{
		{Name: "create", As: "alice", Method: "POST", Path: "/api2/services/history",
			Body:   `{"title":"Oil","vehicleId":"{car}","serviceDate":"2025-05-30","odometer":12000.5,"expenditure":80,"serviceTasks":[" Oil change ","oil change",""]}`,
			Status: 201,
			Want: []string{`"id":"`, `"vehicleId":"{car}"`, `"serviceDate":"2025-05-30T00:00:00Z"`, `"odometer":12000.5`,
				`"serviceTasks":["Oil change"]`, `"userId":"{alice}"`, `"$createdAt":"2025-06-01T09:00:00Z"`}},
		{Name: "required fields", As: "alice", Method: "POST", Path: "/api2/services/history",
			Body: `{"title":"Oil","vehicleId":"{car}","serviceDate":"2025-05-30"}`, Status: 400,
			Want: []string{"odometer is required"}, Unchanged: true},
		{Name: "serviceDate required", As: "alice", Method: "POST", Path: "/api2/services/history",
			Body: `{"title":"Oil","vehicleId":"{car}","odometer":1}`, Status: 400, Want: []string{"serviceDate is required"}},
		{Name: "negative odometer", As: "alice", Method: "POST", Path: "/api2/services/history",
			Body: `{"title":"Oil","vehicleId":"{car}","serviceDate":"2025-05-30","odometer":-1}`, Status: 400},
		{Name: "another user's vehicle", As: "bob", Method: "POST", Path: "/api2/services/history",
			Body:   `{"title":"Oil","vehicleId":"{car}","serviceDate":"2025-05-30","odometer":1}`,
			Status: 400, Want: []string{"vehicleId {car} is not a vehicle you can see"}, Unchanged: true},

		{Name: "list: latest first, page 1 of 10", As: "alice", Method: "GET", Path: "/api2/services/history",
			Before: aliceRecords, Status: 200,
			Want: []string{`"pagination":{"currentPage":1,"totalPages":2,"totalRecords":12}`}, Absent: []string{"van service"},
			After: recordTitles("service 12", "service 11", "service 10", "service 9", "service 8", "service 7",
				"service 6", "service 5", "service 4", "service 3")},
		{Name: "list: page 3 of 5", As: "alice", Method: "GET", Path: "/api2/services/history?limit=5&page=3",
			Before: aliceRecords, Status: 200,
			Want:  []string{`"pagination":{"currentPage":3,"totalPages":3,"totalRecords":12}`},
			After: recordTitles("service 2", "service 1")},
		{Name: "list: from and to are inclusive", As: "alice", Method: "GET",
			Path:   "/api2/services/history?from=2024-03-01T00:00:00Z&to=2024-05-01",
			Before: aliceRecords, Status: 200, Want: []string{`"totalRecords":3`},
			After: recordTitles("service 5", "service 4", "service 3")},
		{Name: "list: by vehicle", As: "alice", Method: "GET", Path: "/api2/services/history?vehicleId={van}",
			Before: aliceRecords, Status: 200,
			Want: []string{`"documents":[]`, `"pagination":{"currentPage":1,"totalPages":0,"totalRecords":0}`}},
		{Name: "list: bob's own", As: "bob", Method: "GET", Path: "/api2/services/history?vehicleId={van}",
			Before: aliceRecords, Status: 200, Want: []string{`"totalRecords":1`}, After: recordTitles("van service")},
		{Name: "list: bad from", As: "alice", Method: "GET", Path: "/api2/services/history?from=yesterday", Status: 400},
		{Name: "list: from after to", As: "alice", Method: "GET", Path: "/api2/services/history?from=2024-05-01&to=2024-03-01", Status: 400},
		{Name: "list: bad vehicleId", As: "alice", Method: "GET", Path: "/api2/services/history?vehicleId=x", Status: 400},

		{Name: "get own", As: "alice", Method: "GET", Path: "/api2/services/history/{s3}", Before: aliceRecords,
			Status: 200, Want: []string{`"id":"{s3}"`, `"title":"service 3"`, `"fileIds":["{f1}"]`}},
		{Name: "another user's record", As: "bob", Method: "GET", Path: "/api2/services/history/{s3}",
			Before: aliceRecords, Status: 404, Absent: []string{"service 3"}},

		{Name: "update", As: "alice", Method: "PUT", Path: "/api2/services/history/{s3}", Before: aliceRecords,
			Body: `{"notes":"brakes squeak","expenditure":45,"userId":"{bob}"}`, Status: 200,
			Want: []string{`"message":"Record updated successfully"`},
			After: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				r, err := e.Core.Office.ServiceRecord(e.user("alice"), e.IDs["s3"])
				e.must(err)
				if r.Notes != "brakes squeak" || *r.Expenditure != 45 || r.Title != "service 3" || r.Owner() != e.IDs["alice"] ||
					len(r.FileIDs) != 1 {
					t.Errorf("stored %+v", r)
				}
			}},
		{Name: "update to an invisible vehicle", As: "alice", Method: "PUT", Path: "/api2/services/history/{s3}",
			Before: aliceRecords, Body: `{"vehicleId":"{van}"}`, Status: 400, Unchanged: true},
		{Name: "update of another user's record", As: "bob", Method: "PUT", Path: "/api2/services/history/{s3}",
			Before: aliceRecords, Body: `{"notes":"x"}`, Status: 404, Unchanged: true},
		{Name: "delete with its files", As: "alice", Method: "DELETE", Path: "/api2/services/history/{s3}",
			Before: aliceRecords, Status: 200, Want: []string{`"message":"Record deleted successfully"`},
			After: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				list, err := e.Core.Office.ServiceRecords(e.user("alice"), office.ServiceQuery{})
				e.must(err)
				if len(list) != 11 || len(e.onDisk()) != 0 {
					t.Errorf("%d records, disk %v", len(list), e.onDisk())
				}
			}},
		{Name: "delete of another user's record", As: "bob", Method: "DELETE", Path: "/api2/services/history/{s3}",
			Before: aliceRecords, Status: 404, Unchanged: true},
		{Name: "no delete by a read-only account", As: "alice", Method: "DELETE", Path: "/api2/services/history/{s3}",
			Before: func(t *testing.T, e *officeEnv) { aliceRecords(t, e); readonlyAlice(t, e) }, Status: 403, Unchanged: true},
	})
}

func TestServiceTasks(t *testing.T) {
	bobTask := func(t *testing.T, e *officeEnv) {
		_, err := e.Core.Office.CreateServiceTask(e.user("bob"), "Tachograph check")
		e.must(err)
	}
	runOffice(t, []officeScenario{
		{Name: "public tasks are seeded", As: "alice", Method: "GET", Path: "/api2/services/task", Status: 200,
			Want: []string{`"label":"Oil change","userId":null`, `"label":"Tyre rotation"`, `"label":"Brake inspection"`},
			After: func(t *testing.T, e *officeEnv, r *webtest.Response) {
				var list []model.ServiceTask
				r.Decode(t, &list)
				if len(list) != len(office.DefaultServiceTasks) {
					t.Errorf("%d tasks", len(list))
				}
				again, err := e.Core.Office.ServiceTasks(e.user("bob"))
				e.must(err)
				if len(again) != len(list) {
					t.Errorf("seeded twice: %d", len(again))
				}
			}},
		{Name: "create", As: "alice", Method: "POST", Path: "/api2/services/task", Body: `{"label":" Trailer hitch "}`,
			Status: 201, Want: []string{`"label":"Trailer hitch"`, `"userId":"{alice}"`, `"id":"`}},
		{Name: "label required", As: "alice", Method: "POST", Path: "/api2/services/task", Body: `{}`, Status: 400,
			Want: []string{"label is required"}},
		{Name: "a public label again", As: "alice", Method: "POST", Path: "/api2/services/task", Body: `{"label":"oil CHANGE"}`,
			Status: 400, Want: []string{"already exists"}},
		{Name: "another user's label is free", As: "alice", Method: "POST", Path: "/api2/services/task",
			Before: bobTask, Body: `{"label":"Tachograph check"}`, Status: 201},
		{Name: "own and public, never others'", As: "alice", Method: "GET", Path: "/api2/services/task",
			Before: func(t *testing.T, e *officeEnv) {
				bobTask(t, e)
				_, err := e.Core.Office.CreateServiceTask(e.user("alice"), "Trailer hitch")
				e.must(err)
			},
			Status: 200, Want: []string{`"label":"Trailer hitch","userId":"{alice}"`}, Absent: []string{"Tachograph"}},
		{Name: "delete own", As: "bob", Method: "DELETE", Path: "/api2/services/task", Before: bobTask,
			Body: `{"label":"tachograph CHECK"}`, Status: 200, Want: []string{`"message":"Task deleted"`},
			After: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				list, err := e.Core.Office.ServiceTasks(e.user("bob"))
				e.must(err)
				if len(list) != len(office.DefaultServiceTasks) {
					t.Errorf("%d tasks left", len(list))
				}
			}},
		{Name: "delete by query", As: "bob", Method: "DELETE", Path: "/api2/services/task?label=Tachograph%20check",
			Before: bobTask, Status: 200},
		{Name: "another user's task stays", As: "alice", Method: "DELETE", Path: "/api2/services/task", Before: bobTask,
			Body: `{"label":"Tachograph check"}`, Status: 404, Unchanged: true},
		{Name: "a public task stays", As: "alice", Method: "DELETE", Path: "/api2/services/task", Before: bobTask,
			Body: `{"label":"Oil change"}`, Status: 404, Unchanged: true},
		{Name: "label required to delete", As: "alice", Method: "DELETE", Path: "/api2/services/task", Status: 400},
	})
}
