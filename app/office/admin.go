package office

import (
	"os"
	"slices"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// Admin is the office's administrative path (reach.go), for the people
// who run the office: the dashboard. An administrator reaches every
// user's tickets, documents and service records, a manager its own and
// those of the users it manages, anyone else its own; a record out of
// reach is "not found". Records it creates are the actor's own. /api2
// never uses it: there the Service's owner path answers.
type Admin struct {
	svc   *Service
	actor *model.User
}

// Admin is the administrative path for actor.
func (svc *Service) Admin(actor *model.User) Admin { return Admin{svc: svc, actor: actor} }

// Tickets lists the tickets in reach (only owner's, unless 0) that match
// q, newest first.
func (a Admin) Tickets(owner int64, q TicketQuery) ([]*model.Ticket, error) {
	return a.svc.tickets(a.actor, adminPath, owner, q)
}

// Ticket returns a ticket in reach.
func (a Admin) Ticket(id int64) (*model.Ticket, error) {
	return tickets.readVia(a.svc.store, a.actor, adminPath, id)
}

// TicketResponses is q's window of a ticket's responses, oldest first, and
// how many it has.
func (a Admin) TicketResponses(ticketID int64, q model.Query) ([]*model.TicketResponse, int, error) {
	return a.svc.ticketResponses(a.actor, adminPath, ticketID, q)
}

// Respond answers a ticket in reach (as support when it is someone else's).
func (a Admin) Respond(ticketID int64, message string, fileIDs []model.TextID) (*model.TicketResponse, error) {
	return a.svc.respond(a.actor, adminPath, ticketID, message, fileIDs)
}

// SetTicketStatus moves a ticket in reach along TicketMoves.
func (a Admin) SetTicketStatus(id int64, status string) (*model.Ticket, error) {
	return a.svc.setTicketStatus(a.actor, adminPath, id, status)
}

// Documents lists the documents in reach (only owner's, unless 0), newest
// first.
func (a Admin) Documents(owner int64) ([]*model.Document, error) {
	var list []*model.Document
	err := a.svc.store.View(func(tx model.Tx) (err error) {
		list, err = documents.listVia(tx, a.actor, adminPath, owner)
		return err
	})
	slices.Reverse(list)
	for _, d := range list {
		a.svc.presentDocument(d)
	}
	return list, err
}

// ExpiringDocuments lists the documents in reach that have an expiry
// date, soonest first.
func (a Admin) ExpiringDocuments() ([]*model.Document, error) {
	list, err := a.Documents(0)
	return expiringFirst(list), err
}

// Document returns a document in reach.
func (a Admin) Document(id int64) (*model.Document, error) {
	return a.svc.document(a.actor, adminPath, id)
}

// CreateDocument stores a document of the actor's own.
func (a Admin) CreateDocument(apply func(*model.Document) error) (*model.Document, error) {
	return a.svc.CreateDocument(a.actor, apply)
}

// UpdateDocument changes a document in reach; it stays its owner's, and
// its vehicle or driver must be one the owner sees.
func (a Admin) UpdateDocument(id int64, apply func(*model.Document) error) (*model.Document, error) {
	return a.svc.updateDocument(a.actor, adminPath, id, apply)
}

// DeleteDocument removes a document in reach and its files.
func (a Admin) DeleteDocument(id int64) error { return a.svc.deleteDocument(a.actor, adminPath, id) }

// ServiceRecords lists the service records in reach (only owner's, unless
// 0) that match q, latest service first.
func (a Admin) ServiceRecords(owner int64, q ServiceQuery) ([]*model.ServiceRecord, error) {
	return a.svc.serviceRecords(a.actor, adminPath, owner, q)
}

// ServiceRecord returns a service record in reach.
func (a Admin) ServiceRecord(id int64) (*model.ServiceRecord, error) {
	return serviceRecords.readVia(a.svc.store, a.actor, adminPath, id)
}

// CreateServiceRecord stores a service record of the actor's own.
func (a Admin) CreateServiceRecord(apply func(*model.ServiceRecord) error) (*model.ServiceRecord, error) {
	return a.svc.CreateServiceRecord(a.actor, apply)
}

// UpdateServiceRecord changes a service record in reach; it stays its
// owner's, and its vehicle must be one the owner sees.
func (a Admin) UpdateServiceRecord(id int64, apply func(*model.ServiceRecord) error) (*model.ServiceRecord, error) {
	return a.svc.updateServiceRecord(a.actor, adminPath, id, apply)
}

// DeleteServiceRecord removes a service record in reach and its files.
func (a Admin) DeleteServiceRecord(id int64) error {
	return a.svc.deleteServiceRecord(a.actor, adminPath, id)
}

// ServicesDue is Service.ServicesDue counting every service record in
// reach: a vehicle serviced by any of those users is not "never serviced".
func (a Admin) ServicesDue(now time.Time) ([]ServiceDue, error) {
	records, err := a.ServiceRecords(0, ServiceQuery{})
	if err != nil {
		return nil, err
	}
	return a.svc.servicesDue(a.actor, records, now)
}

// ServiceDueOf is ServicesDue for one vehicle in reach, reading only its
// own history (a vehicle's page).
func (a Admin) ServiceDueOf(deviceID int64, now time.Time) (ServiceDue, error) {
	records, err := a.ServiceRecords(0, ServiceQuery{VehicleID: deviceID})
	if err != nil {
		return ServiceDue{}, err
	}
	return a.svc.serviceDueOf(a.actor, deviceID, records, now)
}

// File returns the metadata of a file in reach or attached to a ticket in
// reach.
func (a Admin) File(id int64) (*model.File, error) { return a.svc.file(a.actor, adminPath, id) }

// OpenFile is File with the content.
func (a Admin) OpenFile(id int64) (*model.File, *os.File, error) {
	return a.svc.openFile(a.actor, adminPath, id)
}
