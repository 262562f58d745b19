package model

import "time"

// The fleet office's records (package office keeps their rules): support
// tickets and their responses, vehicle and driver documents, uploaded
// files, service records and tasks, payments. Each belongs to one user,
// its Stamp's owner. The JSON is the extended API's (/api2); the store
// keeps its own encoding.

// Stamp is the bookkeeping of an office record: its owner and the times the
// service sets. Callers can never change it.
type Stamp struct {
	UserID    TextID    `json:"userId"`
	CreatedAt time.Time `json:"$createdAt"`
	UpdatedAt time.Time `json:"$updatedAt"`
}

// Stamped is the record's Stamp, for code common to every office kind.
func (s *Stamp) Stamped() *Stamp { return s }

// Owner is the owning user's id.
func (s *Stamp) Owner() int64 { return int64(s.UserID) }

// Ticket is a support ticket (spec section F).
type Ticket struct {
	ID          TextID        `json:"id"`
	TicketNo    int64         `json:"ticket_no"`
	Title       string        `json:"title"`
	Description string        `json:"description"`
	Category    string        `json:"category"`
	Status      string        `json:"status"`
	FileIDs     []TextID      `json:"fileIds"`
	UserInfo    string        `json:"user_info"`
	DeviceInfo  string        `json:"device_info"`
	Device      *TicketDevice `json:"device,omitempty"`
	Stamp
}

func (Ticket) FieldLimits() map[string]int {
	return map[string]int{"title": MaxName, "description": MaxMessage, "category": MaxName, "status": MaxName,
		"user_info": MaxName, "device_info": MaxName}
}

func (t *Ticket) GetID() int64   { return int64(t.ID) }
func (t *Ticket) SetID(id int64) { t.ID = TextID(id) }

// TicketDevice is the device a ticket is about, as F2 sends it.
type TicketDevice struct {
	Value string `json:"value"`
	Name  string `json:"name"`
}

func (TicketDevice) FieldLimits() map[string]int {
	return map[string]int{"value": MaxName, "name": MaxName}
}

// TicketResponse is one message on a support ticket (F5..F8).
type TicketResponse struct {
	ID         TextID     `json:"id"`
	TicketID   TextID     `json:"ticket_id"`
	Message    string     `json:"message"`
	FileIDs    []TextID   `json:"fileIds"`
	SenderInfo SenderInfo `json:"senderInfo"`
	Stamp
}

func (TicketResponse) FieldLimits() map[string]int {
	return map[string]int{"message": MaxMessage}
}

func (r *TicketResponse) GetID() int64   { return int64(r.ID) }
func (r *TicketResponse) SetID(id int64) { r.ID = TextID(id) }

// SenderInfo names a response's author as they were when writing it.
type SenderInfo struct {
	Name string `json:"name"`
	ID   TextID `json:"id"`
}

// Document is a vehicle or driver document (spec section G).
type Document struct {
	ID               TextID   `json:"$id"`
	DocumentOf       string   `json:"documentOf"`
	EntityID         TextID   `json:"entityId"`
	DocumentType     string   `json:"documentType"`
	IdentifiedBy     string   `json:"identifiedBy"`
	IdentificationNo string   `json:"identificationNo"`
	VIN              string   `json:"VIN"`
	Description      string   `json:"description"`
	Status           string   `json:"status"`
	Amount           *float64 `json:"amount"`
	Address          string   `json:"address"`
	IssuedBy         string   `json:"issuedBy"`
	IssuedDate       Date     `json:"issuedDate"`
	ExpiryDate       Date     `json:"expiryDate"`
	RenewalDate      Date     `json:"renewalDate"`
	Notes            string   `json:"notes"`
	FileIDs          []TextID `json:"fileIds"`
	// ExpiryNotices are the reminders already sent for ExpiryDate, in days
	// before it (0: on the day); a new expiryDate starts them afresh.
	ExpiryNotices []int `json:"expiryNotices"`
	Stamp
}

func (Document) FieldLimits() map[string]int {
	return map[string]int{"documentOf": MaxName, "documentType": MaxName, "identifiedBy": MaxName,
		"identificationNo": MaxName, "VIN": MaxName, "status": MaxName, "issuedBy": MaxName, "notes": MaxMessage}
}

func (d *Document) GetID() int64   { return int64(d.ID) }
func (d *Document) SetID(id int64) { d.ID = TextID(id) }

// File is an uploaded attachment: its metadata in the store, its content on
// disk at <FilesDir>/<id>.
type File struct {
	ID   TextID `json:"$id"`
	Name string `json:"name"`
	Size int64  `json:"size"`
	Type string `json:"type"`
	// AttachedTo names the record using the file ("ticket:12",
	// "response:3", "document:5", "service:7"); empty while unused.
	AttachedTo string `json:"attachedTo"`
	Stamp
}

func (f *File) GetID() int64   { return int64(f.ID) }
func (f *File) SetID(id int64) { f.ID = TextID(id) }

// ServiceRecord is one entry of a vehicle's maintenance history (spec
// section L), owned by its creator.
type ServiceRecord struct {
	ID           TextID   `json:"id"`
	Title        string   `json:"title"`
	VehicleID    TextID   `json:"vehicleId"`
	ServiceDate  Date     `json:"serviceDate"`
	Odometer     *float64 `json:"odometer"`
	ProviderName string   `json:"providerName"`
	Location     string   `json:"location"`
	Expenditure  *float64 `json:"expenditure"`
	Notes        string   `json:"notes"`
	FileIDs      []TextID `json:"fileIds"`
	ServiceTasks []string `json:"serviceTasks"`
	Stamp
}

func (ServiceRecord) FieldLimits() map[string]int {
	return map[string]int{"title": MaxName, "providerName": MaxName, "location": MaxName,
		"notes": MaxMessage, "serviceTasks": MaxName}
}

func (r *ServiceRecord) GetID() int64   { return int64(r.ID) }
func (r *ServiceRecord) SetID(id int64) { r.ID = TextID(id) }

// ServiceTask is a reusable maintenance task label (spec L6..L8): public
// (no owner, offered to everyone) or one user's own.
type ServiceTask struct {
	ID    TextID `json:"id"`
	Label string `json:"label"`
	Stamp
}

func (ServiceTask) FieldLimits() map[string]int {
	return map[string]int{"label": MaxName}
}

func (t *ServiceTask) GetID() int64   { return int64(t.ID) }
func (t *ServiceTask) SetID(id int64) { t.ID = TextID(id) }

// Payment is a payment an administrator records for a user (the spec's
// analytics I2 reads them; it does not say how they are recorded). userId,
// the paying user, is set on creation and never changes.
type Payment struct {
	ID     TextID  `json:"id"`
	Method string  `json:"method"`
	Amount float64 `json:"amount"`
	// Currency is an ISO 4217 code; amounts are never converted.
	Currency string `json:"currency"`
	Status   string `json:"status"`
	// Discount is what the user saved on this payment.
	Discount    float64 `json:"discount"`
	Reference   string  `json:"reference,omitempty"`
	Description string  `json:"description,omitempty"`
	Stamp
}

func (Payment) FieldLimits() map[string]int {
	return map[string]int{"method": MaxName, "currency": MaxName, "status": MaxName, "reference": MaxName}
}

func (p *Payment) GetID() int64   { return int64(p.ID) }
func (p *Payment) SetID(id int64) { p.ID = TextID(id) }

// Filing is a Table of office records filed by group: by owner, or for
// ticket responses by ticket. The store keeps the grouping as records are
// created, changed (a record may change group) and deleted.
type Filing[T any] interface {
	Table[T]
	// Group is q's window of group's records in id order (newest first
	// when newestFirst), and how many the group has; only the window's
	// records are read.
	Group(group int64, q Query, newestFirst bool) ([]*T, int, error)
}

// OfficeTx is the fleet office's part of a transaction.
type OfficeTx interface {
	// Tickets, Documents, Files, ServiceRecords and Payments are filed by
	// owner; ServiceTasks too, the public ones under owner 0.
	Tickets() Filing[Ticket]
	// TicketResponses are filed by ticket.
	TicketResponses() Filing[TicketResponse]
	Documents() Filing[Document]
	Files() Filing[File]
	ServiceRecords() Filing[ServiceRecord]
	ServiceTasks() Filing[ServiceTask]
	Payments() Filing[Payment]
	// NextTicketNo hands out ticket numbers: after+1 the first time, then
	// one more than the last each time.
	NextTicketNo(after int64) (int64, error)
	// TasksSeeded reports whether the default service tasks were added,
	// which SetTasksSeeded records.
	TasksSeeded() (bool, error)
	SetTasksSeeded() error
}
