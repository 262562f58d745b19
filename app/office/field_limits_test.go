package office

import (
	"reflect"
	"testing"

	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
)

// TestFieldLimitsNameFields: every name the office's request types declare
// in FieldLimits is a string field of the type.
func TestFieldLimitsNameFields(t *testing.T) {
	for _, v := range []model.Limited{model.Ticket{}, model.TicketDevice{}, model.TicketResponse{}, model.Document{}, model.ServiceRecord{},
		model.ServiceTask{}, model.Payment{}} {
		if err := limits.Verify(reflect.TypeOf(v)); err != nil {
			t.Error(err)
		}
	}
	if got, ok := limits.MaxLength(reflect.TypeFor[model.Ticket](), "device.name"); !ok || got != model.MaxName {
		t.Errorf("Ticket device.name: %d, %v", got, ok)
	}
}
