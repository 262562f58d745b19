package app

import (
	"reflect"
	"testing"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
)

// TestFieldLimitsNameFields: every name the office's request types declare
// in FieldLimits is a string field of the type.
func TestFieldLimitsNameFields(t *testing.T) {
	for _, v := range []model.Limited{office.Ticket{}, office.TicketDevice{}, office.TicketResponse{}, office.Document{}, office.ServiceRecord{},
		office.ServiceTask{}, office.Payment{}, fleet.Installation{}} {
		if err := limits.Verify(reflect.TypeOf(v)); err != nil {
			t.Error(err)
		}
	}
	if got, ok := limits.MaxLength(reflect.TypeFor[office.Ticket](), "device.name"); !ok || got != model.MaxName {
		t.Errorf("Ticket device.name: %d, %v", got, ok)
	}
}
