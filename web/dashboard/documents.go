package dashboard

import (
	"slices"
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

func (d *Dashboard) documentRoutes() []route {
	return []route{
		{"GET", "/documents", d.documents},
		{"GET", "/documents/new", d.documentNew},
		{"POST", "/documents", d.documentCreate},
		{"GET", "/documents/:id", d.documentEdit},
		{"POST", "/documents/:id", d.documentUpdate},
		{"POST", "/documents/:id/delete", d.documentDelete},
	}
}

// documentStates are the computed expiry states, the filter's choices.
var documentStates = []string{office.DocumentValid, office.DocumentExpiring, office.DocumentExpired}

// documentList is the filtered document list.
type documentList struct {
	Entity, Type, State string
	Owners              ownerFilter
	Docs                []docDue
	Entities            entityNames
	Types               []string
}

func (d *Dashboard) documents(c *fiber.Ctx) error {
	actor := user(c)
	v := documentList{Entity: c.Query("entity"), Type: c.Query("type"), State: c.Query("state")}
	if v.State != "" && !slices.Contains(documentStates, v.State) {
		return model.Invalid("state must be one of %s", strings.Join(documentStates, ", "))
	}
	owners, err := d.readOwnerFilter(c)
	if err != nil {
		return err
	}
	v.Owners = owners
	docs, err := d.officeAdmin(c).Documents(owners.ID)
	if err != nil {
		return err
	}
	if v.Entities, err = d.entityNames(actor); err != nil {
		return err
	}
	for _, doc := range docs {
		if !slices.Contains(v.Types, doc.DocumentType) {
			v.Types = append(v.Types, doc.DocumentType)
		}
		if (v.Entity != "" && v.Entity != entityKey(doc.DocumentOf, doc.EntityID)) ||
			(v.Type != "" && v.Type != doc.DocumentType) || (v.State != "" && v.State != doc.Status) {
			continue
		}
		due := docDue{Doc: doc, Entity: v.Entities.of(doc.DocumentOf, int64(doc.EntityID))}
		if !doc.ExpiryDate.IsZero() {
			due.Days = d.core.Office.DaysUntil(doc.ExpiryDate)
		}
		v.Docs = append(v.Docs, due)
	}
	slices.SortFunc(v.Types, compareFold)
	if hxTarget(c, "document-list") {
		return render(c, fiber.StatusOK, documentListBody(v))
	}
	return render(c, fiber.StatusOK, documentsPage(d.page(c, "Documents", "documents"), v))
}

// entityKey names a vehicle or driver in one form field: "vehicle:12".
func entityKey(of string, id model.TextID) string { return of + ":" + id.String() }

func parseEntityKey(s string) (of string, id model.TextID, err error) {
	of, num, ok := strings.Cut(s, ":")
	n, perr := strconv.ParseInt(num, 10, 64)
	if !ok || perr != nil || n <= 0 {
		return "", 0, model.Invalid("choose the vehicle or driver the document belongs to")
	}
	return of, model.TextID(n), nil
}

// documentForm is the document create/edit form.
type documentForm struct {
	Doc      *model.Document
	Files    []*model.File
	Entities entityNames
	Problem  string
	// Owner names whose the document is when it is someone else's.
	Owner string
}

func (d *Dashboard) documentNew(c *fiber.Ctx) error {
	doc := &model.Document{DocumentOf: office.DocumentOfVehicle}
	if of, id, err := parseEntityKey(c.Query("entity")); err == nil {
		doc.DocumentOf, doc.EntityID = of, id
	}
	return d.renderDocumentForm(c, fiber.StatusOK, doc, nil)
}

func (d *Dashboard) documentEdit(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	doc, err := d.officeAdmin(c).Document(id)
	if err != nil {
		return err
	}
	return d.renderDocumentForm(c, fiber.StatusOK, doc, nil)
}

func (d *Dashboard) renderDocumentForm(c *fiber.Ctx, status int, doc *model.Document, problem error) error {
	actor := user(c)
	names, err := d.entityNames(actor)
	if err != nil {
		return err
	}
	files, err := d.files(actor, doc.FileIDs)
	if err != nil {
		return err
	}
	title := "New document"
	if doc.ID != 0 {
		title = doc.DocumentType + " · " + names.of(doc.DocumentOf, int64(doc.EntityID))
	}
	owner, err := d.othersName(actor, doc.Stamped())
	if err != nil {
		return err
	}
	f := documentForm{Doc: doc, Files: files, Entities: names, Problem: problemText(problem), Owner: owner}
	return render(c, status, documentPage(d.page(c, title, "documents"), f))
}

func (d *Dashboard) documentCreate(c *fiber.Ctx) error {
	return d.saveDocument(c, 0)
}

func (d *Dashboard) documentUpdate(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	return d.saveDocument(c, id)
}

// saveDocument creates (id 0) or updates a document from the form, with
// the files uploaded along.
func (d *Dashboard) saveDocument(c *fiber.Ctx, id int64) error {
	officeAdmin := d.officeAdmin(c)
	form := attachedForm[model.Document, *model.Document]{
		read:   readDocument,
		files:  func(doc *model.Document) *[]model.TextID { return &doc.FileIDs },
		create: officeAdmin.CreateDocument,
		update: officeAdmin.UpdateDocument,
		again:  d.renderDocumentForm,
	}
	return form.save(d, c, id, func(*model.Document) error { return redirect(c, Prefix+"/documents") })
}

// readDocument applies the document form's fields to doc.
func readDocument(c *fiber.Ctx, doc *model.Document) error {
	r := &formReader{c: c}
	of, entity, err := parseEntityKey(c.FormValue("entity"))
	r.fail(err)
	doc.DocumentOf, doc.EntityID = of, entity
	doc.DocumentType = r.text("documentType")
	doc.IdentificationNo = r.text("identificationNo")
	doc.IssuedBy = r.text("issuedBy")
	doc.Description = r.text("description")
	doc.Notes = c.FormValue("notes")
	doc.Amount = r.float("amount", "Amount")
	doc.IssuedDate = r.date("issuedDate", "Issued on")
	doc.ExpiryDate = r.date("expiryDate", "Expires on")
	doc.RenewalDate = r.date("renewalDate", "Renewal due")
	doc.FileIDs = r.keptFiles(doc.FileIDs)
	return r.err
}

func (d *Dashboard) documentDelete(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	if err := d.officeAdmin(c).DeleteDocument(id); err != nil {
		return err
	}
	return redirect(c, Prefix+"/documents")
}

func documentURL(doc *model.Document) string { return Prefix + "/documents/" + doc.ID.String() }

func documentAction(doc *model.Document) string {
	if doc.ID == 0 {
		return Prefix + "/documents"
	}
	return documentURL(doc)
}

// entityOptions are the vehicles and drivers a document can belong to.
func entityOptions(n entityNames) []option {
	out := []option{{"", "Choose a vehicle or driver"}}
	for _, kind := range []string{office.DocumentOfVehicle, office.DocumentOfDriver} {
		for _, o := range n.options(kind, "")[1:] {
			out = append(out, option{kind + ":" + o.Value, kind + ": " + o.Label})
		}
	}
	return out
}

func documentStateOptions() []option {
	return []option{{"", "Any state"}, {office.DocumentValid, "Valid"}, {office.DocumentExpiring, "Expiring"}, {office.DocumentExpired, "Expired"}}
}

func documentTypeOptions(types []string) []option {
	out := []option{{"", "Any type"}}
	for _, t := range types {
		out = append(out, option{t, t})
	}
	return out
}

// documentTypeSuggestions are offered while typing a document's type.
var documentTypeSuggestions = []string{"Registration", "Insurance", "Inspection", "Road tax", "Permit",
	"Driving licence", "Medical certificate", "Lease contract", "Warranty"}

// dateValue is a date for a date input.
func dateValue(d model.Date) string {
	if d.IsZero() {
		return ""
	}
	return d.UTC().Format("2006-01-02")
}
