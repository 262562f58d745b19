package fleet

import (
	"reflect"
	"testing"

	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
)

// TestFieldLimitsNameFields: every name Installation declares in
// FieldLimits is a string field of it.
func TestFieldLimitsNameFields(t *testing.T) {
	if err := limits.Verify(reflect.TypeFor[model.Installation]()); err != nil {
		t.Error(err)
	}
}
