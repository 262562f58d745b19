package dashboard

import (
	"cmp"
	"slices"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

func (d *Dashboard) maintenanceRoutes() []route {
	return []route{
		{"GET", "/maintenance", d.maintenance},
		{"GET", "/maintenance/tasks", d.serviceTasks},
		{"POST", "/maintenance/tasks", d.serviceTaskCreate},
		{"POST", "/maintenance/tasks/delete", d.serviceTaskDelete},
		{"GET", "/maintenance/new", d.serviceNew},
		{"POST", "/maintenance", d.serviceCreate},
		{"GET", "/maintenance/:id", d.serviceEdit},
		{"POST", "/maintenance/:id", d.serviceUpdate},
		{"POST", "/maintenance/:id/delete", d.serviceDelete},
	}
}

// serviceRow is a service record with its vehicle's name.
type serviceRow struct {
	Record  *model.ServiceRecord
	Vehicle string
}

// vehicleSpend sums one vehicle's service history.
type vehicleSpend struct {
	ID, Name string
	Services int
	Total    float64
	Last     model.Date
}

// maintenanceView is the service history, optionally of one vehicle, with
// the totals per vehicle.
type maintenanceView struct {
	Vehicle  string
	Owners   ownerFilter
	Vehicles []option
	Rows     []serviceRow
	Total    float64
	Spend    []vehicleSpend
}

func (d *Dashboard) maintenance(c *fiber.Ctx) error {
	actor := user(c)
	v := maintenanceView{Vehicle: c.Query("vehicle")}
	r := &formReader{c: c}
	vehicle := r.queryID("vehicle")
	if r.err != nil {
		return r.err
	}
	owners, err := d.readOwnerFilter(c)
	if err != nil {
		return err
	}
	v.Owners = owners
	records, err := d.officeAdmin(c).ServiceRecords(owners.ID, office.ServiceQuery{}) // latest first
	if err != nil {
		return err
	}
	names, err := d.entityNames(actor)
	if err != nil {
		return err
	}
	v.Vehicles = names.options(office.DocumentOfVehicle, "All vehicles")
	spend := map[model.TextID]*vehicleSpend{}
	for _, rec := range records {
		s := spend[rec.VehicleID]
		if s == nil {
			s = &vehicleSpend{ID: rec.VehicleID.String(), Name: names.of(office.DocumentOfVehicle, int64(rec.VehicleID)), Last: rec.ServiceDate}
			spend[rec.VehicleID] = s
		}
		s.Services++
		s.Total += deref(rec.Expenditure)
		if vehicle != 0 && int64(rec.VehicleID) != vehicle {
			continue
		}
		v.Rows = append(v.Rows, serviceRow{Record: rec, Vehicle: s.Name})
		v.Total += deref(rec.Expenditure)
	}
	for _, s := range spend {
		v.Spend = append(v.Spend, *s)
	}
	slices.SortFunc(v.Spend, func(a, b vehicleSpend) int { return cmp.Or(cmp.Compare(b.Total, a.Total), compareFold(a.Name, b.Name)) })
	if hxTarget(c, "service-list") {
		return render(c, fiber.StatusOK, serviceListBody(v))
	}
	return render(c, fiber.StatusOK, maintenancePage(d.page(c, "Maintenance", "maintenance"), v))
}

func deref(v *float64) float64 {
	if v == nil {
		return 0
	}
	return *v
}

// serviceForm is the service record create/edit form.
type serviceForm struct {
	Record   *model.ServiceRecord
	Files    []*model.File
	Vehicles []option
	Tasks    []string
	Problem  string
	// Owner names whose the record is when it is someone else's.
	Owner string
}

func (d *Dashboard) serviceNew(c *fiber.Ctx) error {
	r := &formReader{c: c}
	rec := &model.ServiceRecord{VehicleID: model.TextID(r.queryID("vehicle"))}
	if r.err != nil {
		return r.err
	}
	return d.renderServiceForm(c, fiber.StatusOK, rec, nil)
}

func (d *Dashboard) serviceEdit(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	rec, err := d.officeAdmin(c).ServiceRecord(id)
	if err != nil {
		return err
	}
	return d.renderServiceForm(c, fiber.StatusOK, rec, nil)
}

func (d *Dashboard) renderServiceForm(c *fiber.Ctx, status int, rec *model.ServiceRecord, problem error) error {
	actor := user(c)
	names, err := d.entityNames(actor)
	if err != nil {
		return err
	}
	files, err := d.files(actor, rec.FileIDs)
	if err != nil {
		return err
	}
	tasks, err := d.core.Office.ServiceTasks(actor)
	if err != nil {
		return err
	}
	owner, err := d.othersName(actor, rec.Stamped())
	if err != nil {
		return err
	}
	f := serviceForm{Record: rec, Files: files, Vehicles: names.options(office.DocumentOfVehicle, "Choose a vehicle"),
		Problem: problemText(problem), Owner: owner}
	for _, t := range tasks {
		f.Tasks = append(f.Tasks, t.Label)
	}
	for _, l := range rec.ServiceTasks { // a task since deleted stays choosable on its record
		if !slices.Contains(f.Tasks, l) {
			f.Tasks = append(f.Tasks, l)
		}
	}
	title := "New service record"
	if rec.ID != 0 {
		title = rec.Title
	}
	return render(c, status, servicePage(d.page(c, title, "maintenance"), f))
}

func (d *Dashboard) serviceCreate(c *fiber.Ctx) error { return d.saveService(c, 0) }

func (d *Dashboard) serviceUpdate(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	return d.saveService(c, id)
}

// saveService creates (id 0) or updates a service record from the form,
// with the files uploaded along.
func (d *Dashboard) saveService(c *fiber.Ctx, id int64) error {
	officeAdmin := d.officeAdmin(c)
	form := attachedForm[model.ServiceRecord, *model.ServiceRecord]{
		read:   readService,
		files:  func(rec *model.ServiceRecord) *[]model.TextID { return &rec.FileIDs },
		create: officeAdmin.CreateServiceRecord,
		update: officeAdmin.UpdateServiceRecord,
		again:  d.renderServiceForm,
	}
	return form.save(d, c, id, func(saved *model.ServiceRecord) error {
		return redirect(c, Prefix+"/maintenance?vehicle="+saved.VehicleID.String())
	})
}

// readService applies the service form's fields to rec.
func readService(c *fiber.Ctx, rec *model.ServiceRecord) error {
	r := &formReader{c: c}
	rec.Title = r.text("title")
	rec.VehicleID = model.TextID(r.id("vehicleId"))
	rec.ServiceDate = r.date("serviceDate", "Service date")
	if rec.Odometer = r.float("odometer", "Odometer"); rec.Odometer != nil {
		km := display(c).KmFrom(*rec.Odometer) // typed in the viewer's unit, kept in km
		rec.Odometer = &km
	}
	rec.Expenditure = r.float("expenditure", "Cost")
	rec.ProviderName = r.text("providerName")
	rec.Location = r.text("location")
	rec.Notes = c.FormValue("notes")
	rec.ServiceTasks = r.values("serviceTasks")
	if extra := r.text("newTask"); extra != "" {
		rec.ServiceTasks = append(rec.ServiceTasks, extra)
	}
	rec.FileIDs = r.keptFiles(rec.FileIDs)
	return r.err
}

func (d *Dashboard) serviceDelete(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	if err := d.officeAdmin(c).DeleteServiceRecord(id); err != nil {
		return err
	}
	return redirect(c, Prefix+"/maintenance")
}

// taskView is the service task list: public tasks and the viewer's own.
type taskView struct {
	Tasks   []*model.ServiceTask
	Problem string
	Label   string
}

func (d *Dashboard) serviceTasks(c *fiber.Ctx) error {
	return d.renderTasks(c, fiber.StatusOK, "", nil)
}

func (d *Dashboard) renderTasks(c *fiber.Ctx, status int, label string, problem error) error {
	tasks, err := d.core.Office.ServiceTasks(user(c))
	if err != nil {
		return err
	}
	return render(c, status, tasksPage(d.page(c, "Service tasks", "maintenance"), taskView{Tasks: tasks, Problem: problemText(problem), Label: label}))
}

func (d *Dashboard) serviceTaskCreate(c *fiber.Ctx) error {
	label := c.FormValue("label")
	if _, err := d.core.Office.CreateServiceTask(user(c), label); err != nil {
		return d.formFailed(c, err, func(status int) error { return d.renderTasks(c, status, label, err) })
	}
	return redirect(c, Prefix+"/maintenance/tasks")
}

func (d *Dashboard) serviceTaskDelete(c *fiber.Ctx) error {
	if err := d.core.Office.DeleteServiceTask(user(c), c.FormValue("label")); err != nil {
		return err
	}
	return redirect(c, Prefix+"/maintenance/tasks")
}

func serviceURL(rec *model.ServiceRecord) string { return Prefix + "/maintenance/" + rec.ID.String() }

func serviceAction(rec *model.ServiceRecord) string {
	if rec.ID == 0 {
		return Prefix + "/maintenance"
	}
	return serviceURL(rec)
}

func hasTask(rec *model.ServiceRecord, label string) bool {
	return slices.Contains(rec.ServiceTasks, label)
}

func joinTasks(tasks []string) string { return strings.Join(tasks, ", ") }
