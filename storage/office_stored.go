package storage

import (
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// The office's records as stored. Their fields and names are those the
// records were first written with (the API's at the time); the API may
// change its own from now on.

// storedStamp is the owner and times every office record ends with.
type storedStamp struct {
	UserID    storedID  `json:"userId"`
	CreatedAt time.Time `json:"$createdAt"`
	UpdatedAt time.Time `json:"$updatedAt"`
}

func storeStamp(s model.Stamp) storedStamp {
	return storedStamp{UserID: storedID(s.UserID), CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt}
}

func loadStamp(s storedStamp) model.Stamp {
	return model.Stamp{UserID: model.TextID(s.UserID), CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt}
}

type storedTicket struct {
	ID          storedID            `json:"id"`
	TicketNo    int64               `json:"ticket_no"`
	Title       string              `json:"title"`
	Description string              `json:"description"`
	Category    string              `json:"category"`
	Status      string              `json:"status"`
	FileIDs     []storedID          `json:"fileIds"`
	UserInfo    string              `json:"user_info"`
	DeviceInfo  string              `json:"device_info"`
	Device      *storedTicketDevice `json:"device,omitempty"`
	storedStamp
}

type storedTicketDevice struct {
	Value string `json:"value"`
	Name  string `json:"name"`
}

func storeTicket(t *model.Ticket) storedTicket {
	s := storedTicket{ID: storedID(t.ID), TicketNo: t.TicketNo, Title: t.Title, Description: t.Description,
		Category: t.Category, Status: t.Status, FileIDs: storeIDs(t.FileIDs), UserInfo: t.UserInfo,
		DeviceInfo: t.DeviceInfo, storedStamp: storeStamp(t.Stamp)}
	if t.Device != nil {
		s.Device = &storedTicketDevice{Value: t.Device.Value, Name: t.Device.Name}
	}
	return s
}

func loadTicket(s *storedTicket) model.Ticket {
	t := model.Ticket{ID: model.TextID(s.ID), TicketNo: s.TicketNo, Title: s.Title, Description: s.Description,
		Category: s.Category, Status: s.Status, FileIDs: loadIDs(s.FileIDs), UserInfo: s.UserInfo,
		DeviceInfo: s.DeviceInfo, Stamp: loadStamp(s.storedStamp)}
	if s.Device != nil {
		t.Device = &model.TicketDevice{Value: s.Device.Value, Name: s.Device.Name}
	}
	return t
}

type storedResponse struct {
	ID         storedID     `json:"id"`
	TicketID   storedID     `json:"ticket_id"`
	Message    string       `json:"message"`
	FileIDs    []storedID   `json:"fileIds"`
	SenderInfo storedSender `json:"senderInfo"`
	storedStamp
}

type storedSender struct {
	Name string   `json:"name"`
	ID   storedID `json:"id"`
}

func storeResponse(r *model.TicketResponse) storedResponse {
	return storedResponse{ID: storedID(r.ID), TicketID: storedID(r.TicketID), Message: r.Message,
		FileIDs:    storeIDs(r.FileIDs),
		SenderInfo: storedSender{Name: r.SenderInfo.Name, ID: storedID(r.SenderInfo.ID)}, storedStamp: storeStamp(r.Stamp)}
}

func loadResponse(s *storedResponse) model.TicketResponse {
	return model.TicketResponse{ID: model.TextID(s.ID), TicketID: model.TextID(s.TicketID), Message: s.Message,
		FileIDs:    loadIDs(s.FileIDs),
		SenderInfo: model.SenderInfo{Name: s.SenderInfo.Name, ID: model.TextID(s.SenderInfo.ID)}, Stamp: loadStamp(s.storedStamp)}
}

type storedDocument struct {
	ID               storedID   `json:"$id"`
	DocumentOf       string     `json:"documentOf"`
	EntityID         storedID   `json:"entityId"`
	DocumentType     string     `json:"documentType"`
	IdentifiedBy     string     `json:"identifiedBy"`
	IdentificationNo string     `json:"identificationNo"`
	VIN              string     `json:"VIN"`
	Description      string     `json:"description"`
	Status           string     `json:"status"`
	Amount           *float64   `json:"amount"`
	Address          string     `json:"address"`
	IssuedBy         string     `json:"issuedBy"`
	IssuedDate       storedDate `json:"issuedDate"`
	ExpiryDate       storedDate `json:"expiryDate"`
	RenewalDate      storedDate `json:"renewalDate"`
	Notes            string     `json:"notes"`
	FileIDs          []storedID `json:"fileIds"`
	ExpiryNotices    []int      `json:"expiryNotices"`
	storedStamp
}

func storeDocument(d *model.Document) storedDocument {
	return storedDocument{ID: storedID(d.ID), DocumentOf: d.DocumentOf, EntityID: storedID(d.EntityID),
		DocumentType: d.DocumentType, IdentifiedBy: d.IdentifiedBy, IdentificationNo: d.IdentificationNo,
		VIN: d.VIN, Description: d.Description, Status: d.Status, Amount: d.Amount, Address: d.Address,
		IssuedBy: d.IssuedBy, IssuedDate: storeDate(d.IssuedDate), ExpiryDate: storeDate(d.ExpiryDate),
		RenewalDate: storeDate(d.RenewalDate), Notes: d.Notes, FileIDs: storeIDs(d.FileIDs),
		ExpiryNotices: d.ExpiryNotices, storedStamp: storeStamp(d.Stamp)}
}

func loadDocument(s *storedDocument) model.Document {
	return model.Document{ID: model.TextID(s.ID), DocumentOf: s.DocumentOf, EntityID: model.TextID(s.EntityID),
		DocumentType: s.DocumentType, IdentifiedBy: s.IdentifiedBy, IdentificationNo: s.IdentificationNo,
		VIN: s.VIN, Description: s.Description, Status: s.Status, Amount: s.Amount, Address: s.Address,
		IssuedBy: s.IssuedBy, IssuedDate: loadDate(s.IssuedDate), ExpiryDate: loadDate(s.ExpiryDate),
		RenewalDate: loadDate(s.RenewalDate), Notes: s.Notes, FileIDs: loadIDs(s.FileIDs),
		ExpiryNotices: s.ExpiryNotices, Stamp: loadStamp(s.storedStamp)}
}

type storedFile struct {
	ID         storedID `json:"$id"`
	Name       string   `json:"name"`
	Size       int64    `json:"size"`
	Type       string   `json:"type"`
	AttachedTo string   `json:"attachedTo"`
	storedStamp
}

func storeFile(f *model.File) storedFile {
	return storedFile{ID: storedID(f.ID), Name: f.Name, Size: f.Size, Type: f.Type, AttachedTo: f.AttachedTo,
		storedStamp: storeStamp(f.Stamp)}
}

func loadFile(s *storedFile) model.File {
	return model.File{ID: model.TextID(s.ID), Name: s.Name, Size: s.Size, Type: s.Type, AttachedTo: s.AttachedTo,
		Stamp: loadStamp(s.storedStamp)}
}

type storedServiceRecord struct {
	ID           storedID   `json:"id"`
	Title        string     `json:"title"`
	VehicleID    storedID   `json:"vehicleId"`
	ServiceDate  storedDate `json:"serviceDate"`
	Odometer     *float64   `json:"odometer"`
	ProviderName string     `json:"providerName"`
	Location     string     `json:"location"`
	Expenditure  *float64   `json:"expenditure"`
	Notes        string     `json:"notes"`
	FileIDs      []storedID `json:"fileIds"`
	ServiceTasks []string   `json:"serviceTasks"`
	storedStamp
}

func storeServiceRecord(r *model.ServiceRecord) storedServiceRecord {
	return storedServiceRecord{ID: storedID(r.ID), Title: r.Title, VehicleID: storedID(r.VehicleID),
		ServiceDate: storeDate(r.ServiceDate), Odometer: r.Odometer, ProviderName: r.ProviderName,
		Location: r.Location, Expenditure: r.Expenditure, Notes: r.Notes, FileIDs: storeIDs(r.FileIDs),
		ServiceTasks: r.ServiceTasks, storedStamp: storeStamp(r.Stamp)}
}

func loadServiceRecord(s *storedServiceRecord) model.ServiceRecord {
	return model.ServiceRecord{ID: model.TextID(s.ID), Title: s.Title, VehicleID: model.TextID(s.VehicleID),
		ServiceDate: loadDate(s.ServiceDate), Odometer: s.Odometer, ProviderName: s.ProviderName,
		Location: s.Location, Expenditure: s.Expenditure, Notes: s.Notes, FileIDs: loadIDs(s.FileIDs),
		ServiceTasks: s.ServiceTasks, Stamp: loadStamp(s.storedStamp)}
}

type storedServiceTask struct {
	ID    storedID `json:"id"`
	Label string   `json:"label"`
	storedStamp
}

func storeServiceTask(t *model.ServiceTask) storedServiceTask {
	return storedServiceTask{ID: storedID(t.ID), Label: t.Label, storedStamp: storeStamp(t.Stamp)}
}

func loadServiceTask(s *storedServiceTask) model.ServiceTask {
	return model.ServiceTask{ID: model.TextID(s.ID), Label: s.Label, Stamp: loadStamp(s.storedStamp)}
}

type storedPayment struct {
	ID          storedID `json:"id"`
	Method      string   `json:"method"`
	Amount      float64  `json:"amount"`
	Currency    string   `json:"currency"`
	Status      string   `json:"status"`
	Discount    float64  `json:"discount"`
	Reference   string   `json:"reference,omitempty"`
	Description string   `json:"description,omitempty"`
	storedStamp
}

func storePayment(p *model.Payment) storedPayment {
	return storedPayment{ID: storedID(p.ID), Method: p.Method, Amount: p.Amount, Currency: p.Currency,
		Status: p.Status, Discount: p.Discount, Reference: p.Reference, Description: p.Description,
		storedStamp: storeStamp(p.Stamp)}
}

func loadPayment(s *storedPayment) model.Payment {
	return model.Payment{ID: model.TextID(s.ID), Method: s.Method, Amount: s.Amount, Currency: s.Currency,
		Status: s.Status, Discount: s.Discount, Reference: s.Reference, Description: s.Description,
		Stamp: loadStamp(s.storedStamp)}
}
