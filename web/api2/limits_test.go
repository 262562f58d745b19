package api2_test

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// TestOverLongValues: a string longer than its field's limit answers 400
// naming the field and the limit, and the store is left as it was. The
// first three are the issue's: values longer than a store key (a uniqueId,
// an e-mail that becomes an OTP's key), which answered 500 "key too large".
func TestOverLongValues(t *testing.T) {
	digits := strings.Repeat("7", 40_000)
	long := func(n int) string { return strings.Repeat("x", n) }
	email := func(n int) string { return long(n-len("@example.com")) + "@example.com" }
	tests := []struct {
		name, as, method, path, body string
		want                         string
	}{
		{"M3 uniqueId of 40,000 digits", "alice", "POST", "/api2/devices",
			`{"name":"Truck","uniqueId":"` + digits + `","phone":"1","contact":"c"}`, "uniqueId may have at most 128 characters"},
		{"H1 value of 40,000 characters", "alice", "POST", "/api2/security/update/init",
			`{"field":"email","value":"` + email(40_000) + `"}`, "value may have at most 254 characters"},
		{"A5 e-mail of 40,000 characters", "", "POST", "/api2/auth/registration/init",
			`{"email":"` + email(40_000) + `"}`, "email may have at most 254 characters"},

		{"M3 name", "alice", "POST", "/api2/devices",
			`{"name":"` + long(model.MaxName+1) + `","uniqueId":"1","phone":"1","contact":"c"}`, "name may have at most 256"},
		{"M3 installation notes", "alice", "POST", "/api2/devices",
			`{"name":"T","uniqueId":"1","phone":"1","contact":"c","notes":"` + long(model.MaxMessage+1) + `"}`, "notes may have at most 10000"},
		{"M3 attribute key", "alice", "POST", "/api2/devices",
			`{"name":"T","uniqueId":"1","phone":"1","contact":"c","attributes":{"` + long(model.MaxAttributeKey+1) + `":1}}`, "attributes keys may have at most 128"},
		{"M4 uniqueId", "alice", "PUT", "/api2/devices/{car}",
			`{"name":"T","uniqueId":"` + long(model.MaxUniqueID+1) + `","phone":"1","contact":"c"}`, "uniqueId may have at most 128"},
		{"M6 IMEI", "alice", "GET", "/api2/devices/check-imei/" + long(model.MaxUniqueID+1), "", "IMEI may have at most 128"},

		{"A1 identifier", "", "POST", "/api2/auth/otp/verify",
			`{"otp":"123456","identifier":"` + email(model.MaxEmail+1) + `","type":"reset"}`, "identifier may have at most 254"},
		{"A1 otp", "", "POST", "/api2/auth/otp/verify",
			`{"otp":"` + long(model.MaxName+1) + `","identifier":"alice@example.com","type":"reset"}`, "otp may have at most 256"},
		{"A2 identifier", "", "POST", "/api2/auth/login",
			`{"identifier":"` + email(40_000) + `","password":"p"}`, "identifier may have at most 254"},
		{"A2 password", "", "POST", "/api2/auth/login",
			`{"identifier":"alice@example.com","password":"` + long(model.MaxPassword+1) + `"}`, "password may have at most 72 bytes"},
		{"A3 e-mail", "", "POST", "/api2/auth/account/reset", `{"email":"` + email(40_000) + `"}`, "email may have at most 254"},
		{"A3 phone", "", "POST", "/api2/auth/account/reset", `{"phone":"+1 ` + long(model.MaxName) + `"}`, "phone may have at most 256"},
		{"A4 new password", "", "POST", "/api2/auth/password/reset",
			`{"token":"t","newPassword":"` + long(model.MaxPassword+1) + `"}`, "newPassword may have at most 72 bytes"},
		{"A4 token", "", "POST", "/api2/auth/password/reset",
			`{"token":"` + long(model.MaxName+1) + `","newPassword":"p"}`, "token may have at most 256"},
		{"A6 full name", "", "POST", "/api2/auth/registration/complete",
			`{"token":"t","fullName":"` + long(model.MaxName+1) + `","password":"p"}`, "fullName may have at most 256"},
		{"A7 full name", "", "POST", "/api2/auth/demo-login/init",
			`{"phone":"+37060000000","fullName":"` + long(model.MaxName+1) + `"}`, "fullName may have at most 256"},
		{"H2 otp", "alice", "POST", "/api2/security/update/verify",
			`{"field":"phone","value":"+37060000000","otp":"` + long(model.MaxName+1) + `"}`, "otp may have at most 256"},
		{"H3 password", "alice", "POST", "/api2/security/verify-password",
			`{"password":"` + long(model.MaxPassword+1) + `"}`, "password may have at most 72 bytes"},
		{"K3 token", "alice", "PUT", "/api2/notifications/tokens", `{"token":"` + long(model.MaxText+1) + `"}`, "token may have at most 4096"},
		{"K4 token", "alice", "DELETE", "/api2/notifications/tokens", `{"token":"` + long(model.MaxText+1) + `"}`, "token may have at most 4096"},

		{"F2 title", "alice", "POST", "/api2/support/tickets", `{"title":"` + long(model.MaxName+1) + `"}`, "title may have at most 256"},
		{"F2 description", "alice", "POST", "/api2/support/tickets",
			`{"title":"t","description":"` + long(model.MaxMessage+1) + `"}`, "description may have at most 10000"},
		{"F2 device name", "alice", "POST", "/api2/support/tickets",
			`{"title":"t","device":{"value":"1","name":"` + long(model.MaxName+1) + `"}}`, "device.name may have at most 256"},
		{"F6 content", "alice", "POST", "/api2/support/tickets/respond",
			`{"ticketId":"{tk}","content":"` + long(model.MaxMessage+1) + `"}`, "message may have at most 10000"},
		{"F7 message", "alice", "PUT", "/api2/support/tickets/responses/{rs}",
			`{"message":"` + long(model.MaxMessage+1) + `"}`, "message may have at most 10000"},
		{"document VIN", "alice", "POST", "/api2/documents",
			`{"documentOf":"vehicle","entityId":"{car}","documentType":"insurance","VIN":"` + long(model.MaxName+1) + `"}`, "VIN may have at most 256"},
		{"G3 notes", "alice", "PUT", "/api2/documents/{doc}", `{"notes":"` + long(model.MaxMessage+1) + `"}`, "notes may have at most 10000"},
		{"L3 task label", "alice", "POST", "/api2/services/history",
			`{"title":"Oil","vehicleId":"{car}","serviceDate":"2025-05-01","odometer":1000,"serviceTasks":["Oil change","` + long(model.MaxName+1) + `"]}`,
			"serviceTasks may have at most 256"},
		{"L4 provider", "alice", "PUT", "/api2/services/history/{rec}", `{"providerName":"` + long(model.MaxName+1) + `"}`, "providerName may have at most 256"},
		{"L6 label", "alice", "POST", "/api2/services/task", `{"label":"` + long(model.MaxName+1) + `"}`, "label may have at most 256"},
		{"L8 label", "alice", "DELETE", "/api2/services/task", `{"label":"` + long(model.MaxName+1) + `"}`, "label may have at most 256"},
		{"payment reference", "admin", "POST", "/api2/payments",
			`{"userId":"{alice}","method":"card","amount":1,"currency":"EUR","reference":"` + long(model.MaxName+1) + `"}`, "reference may have at most 256"},
	}
	records := func(t *testing.T, e *officeEnv) {
		_, err := e.Core.Accounts.UpdateServer(model.System(), func(s *model.Server) error { s.Registration = true; return nil })
		e.must(err) // so that A5 and A6 get as far as the store
		e.ticket("tk", "alice", "Help")
		e.respond("rs", "alice", "tk", "details")
		e.document("doc", "alice", "insurance", officeNow.AddDate(1, 0, 0))
		e.record("rec", "alice", "Oil", officeNow)
		e.Snapshot = nil // the whole store, not only the office records
	}
	var scenarios []officeScenario
	for _, tt := range tests {
		scenarios = append(scenarios, officeScenario{Name: tt.name, As: tt.as, Method: tt.method, Path: tt.path, Body: tt.body,
			Before: records, Status: 400, Want: []string{tt.want}, Absent: []string{digits[:200]}, Unchanged: true})
	}
	runOffice(t, scenarios)
}
