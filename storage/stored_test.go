package storage

import (
	"reflect"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// storedForm checks that spec writes v as want, the layout of the file,
// and reads want back as v: the stored form is fixed here, not by the
// kernel's or the API's JSON.
func storedForm[T any](t *testing.T, spec *tableSpec[T], v *T, want string) {
	t.Helper()
	got, err := spec.encode(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s stored as\n %s\nwant\n %s", spec.what, got, want)
	}
	back := new(T)
	if err := spec.decode([]byte(want), back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, v) {
		t.Errorf("%s reads back as\n %+v\nwant\n %+v", spec.what, back, v)
	}
}

func TestStoredForms(t *testing.T) {
	at := time.Date(2025, 5, 1, 9, 30, 0, 0, time.UTC)
	exp := at.AddDate(1, 0, 0)
	day := model.Date{Time: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)}
	stamp := model.Stamp{UserID: 2, CreatedAt: at, UpdatedAt: at.Add(time.Minute)}
	const stampJSON = `"userId":"2","$createdAt":"2025-05-01T09:30:00Z","$updatedAt":"2025-05-01T09:31:00Z"}`
	n1, n2 := 120.5, 88000.0

	storedForm(t, &usersSpec, &model.User{Base: model.Base{ID: 1}, Name: "Ann", Login: "ann", Email: "ann@example.com",
		Phone: "+1555", Readonly: true, Administrator: true, Map: "osm", Latitude: 1.5, Longitude: 2.5, Zoom: 3,
		TwelveHourFormat: true, CoordinateFormat: "dd", Disabled: true, ExpirationTime: &exp, DeviceLimit: 4,
		UserLimit: 5, DeviceReadonly: true, LimitCommands: true, DisableReports: true, FixedEmail: true,
		PoiLayer: "poi", Attributes: model.Attributes{"k": "v"}, PasswordHash: "hash"},
		`{"id":1,"name":"Ann","login":"ann","email":"ann@example.com","phone":"+1555","readonly":true,`+
			`"administrator":true,"map":"osm","latitude":1.5,"longitude":2.5,"zoom":3,"twelveHourFormat":true,`+
			`"coordinateFormat":"dd","disabled":true,"expirationTime":"2026-05-01T09:30:00Z","deviceLimit":4,`+
			`"userLimit":5,"deviceReadonly":true,"limitCommands":true,"disableReports":true,"fixedEmail":true,`+
			`"poiLayer":"poi","attributes":{"k":"v"},"passwordHash":"hash"}`)
	storedForm(t, &ticketsSpec, &model.Ticket{ID: 1, TicketNo: 1001, Title: "t", Description: "d", Category: "app",
		Status: "open", FileIDs: []model.TextID{3}, UserInfo: "u", DeviceInfo: "di",
		Device: &model.TicketDevice{Value: "7", Name: "Van"}, Stamp: stamp},
		`{"id":"1","ticket_no":1001,"title":"t","description":"d","category":"app","status":"open","fileIds":["3"],`+
			`"user_info":"u","device_info":"di","device":{"value":"7","name":"Van"},`+stampJSON)
	storedForm(t, &responsesSpec, &model.TicketResponse{ID: 1, TicketID: 4, Message: "m", FileIDs: []model.TextID{},
		SenderInfo: model.SenderInfo{Name: "Ann", ID: 2}, Stamp: stamp},
		`{"id":"1","ticket_id":"4","message":"m","fileIds":[],"senderInfo":{"name":"Ann","id":"2"},`+stampJSON)
	storedForm(t, &documentsSpec, &model.Document{ID: 1, DocumentOf: "vehicle", EntityID: 7, DocumentType: "Insurance",
		IdentifiedBy: "ib", IdentificationNo: "POL", VIN: "vin", Description: "d", Status: "valid", Amount: &n1,
		Address: "a", IssuedBy: "i", IssuedDate: day, ExpiryDate: day, Notes: "n", FileIDs: nil,
		ExpiryNotices: []int{30}, Stamp: stamp},
		`{"$id":"1","documentOf":"vehicle","entityId":"7","documentType":"Insurance","identifiedBy":"ib",`+
			`"identificationNo":"POL","VIN":"vin","description":"d","status":"valid","amount":120.5,"address":"a",`+
			`"issuedBy":"i","issuedDate":"2025-06-01T00:00:00Z","expiryDate":"2025-06-01T00:00:00Z","renewalDate":null,`+
			`"notes":"n","fileIds":null,"expiryNotices":[30],`+stampJSON)
	storedForm(t, &filesSpec, &model.File{ID: 1, Name: "r.pdf", Size: 19, Type: "application/pdf", AttachedTo: "ticket:1", Stamp: stamp},
		`{"$id":"1","name":"r.pdf","size":19,"type":"application/pdf","attachedTo":"ticket:1",`+stampJSON)
	storedForm(t, &recordsSpec, &model.ServiceRecord{ID: 1, Title: "s", VehicleID: 7, ServiceDate: day, Odometer: &n2,
		ProviderName: "p", Location: "l", Expenditure: &n1, Notes: "n", FileIDs: []model.TextID{3, 4},
		ServiceTasks: []string{"Oil change"}, Stamp: stamp},
		`{"id":"1","title":"s","vehicleId":"7","serviceDate":"2025-06-01T00:00:00Z","odometer":88000,"providerName":"p",`+
			`"location":"l","expenditure":120.5,"notes":"n","fileIds":["3","4"],"serviceTasks":["Oil change"],`+stampJSON)
	storedForm(t, &tasksSpec, &model.ServiceTask{ID: 1, Label: "Oil change", Stamp: model.Stamp{CreatedAt: at, UpdatedAt: at}},
		`{"id":"1","label":"Oil change","userId":null,"$createdAt":"2025-05-01T09:30:00Z","$updatedAt":"2025-05-01T09:30:00Z"}`)
	storedForm(t, &paymentsSpec, &model.Payment{ID: 1, Method: "card", Amount: 49, Currency: "EUR", Status: "completed",
		Discount: 1.5, Reference: "INV", Description: "d", Stamp: stamp},
		`{"id":"1","method":"card","amount":49,"currency":"EUR","status":"completed","discount":1.5,"reference":"INV",`+
			`"description":"d",`+stampJSON)
	storedForm(t, &otpsSpec, &model.OTP{Base: model.Base{ID: 1}, Key: "k", Purpose: "registration", Identifier: "a@b",
		UserID: 2, Name: "N", Hash: "h", Sent: at, Expires: exp, Tries: 1},
		`{"id":1,"key":"k","purpose":"registration","identifier":"a@b","userId":2,"name":"N","hash":"h",`+
			`"sent":"2025-05-01T09:30:00Z","expires":"2026-05-01T09:30:00Z","tries":1}`)
	storedForm(t, &otpTokensSpec, &model.OTPToken{Base: model.Base{ID: 1}, Key: "k", Purpose: "reset", Identifier: "a@b",
		UserID: 2, Expires: exp},
		`{"id":1,"key":"k","purpose":"reset","identifier":"a@b","userId":2,"expires":"2026-05-01T09:30:00Z"}`)
}

// Stored ids and dates read what older writers may have left: numbers,
// empty strings.
func TestStoredValuesTolerant(t *testing.T) {
	var r model.ServiceRecord
	err := recordsSpec.decode([]byte(`{"id":1,"vehicleId":"","serviceDate":"","fileIds":[5],"userId":3}`), &r)
	if err != nil || r.ID != 1 || r.VehicleID != 0 || !r.ServiceDate.IsZero() || len(r.FileIDs) != 1 || r.FileIDs[0] != 5 || r.UserID != 3 {
		t.Errorf("decoded %+v, %v", r, err)
	}
}
