package fleet

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// MileageAttribute is the position attribute J1 connects a vehicle to: a
// constant fuel efficiency such as "12 km/l".
const MileageAttribute = "mileage"

const maxMileage = 50

// ConnectMileage answers J1: it gives the vehicle a computed "mileage"
// attribute with value (the vehicle's own "mileage" attribute when value
// is empty), reusing a computed attribute with that value the actor sees
// or creating one, and links it to the vehicle and the actor. A vehicle has
// one mileage: others linked to it directly are unlinked. created reports
// whether a computed attribute was created.
func (fl *Service) ConnectMileage(actor *model.User, deviceID int64, value string) (created bool, err error) {
	err = fl.store.As(actor).Update(func(tx model.Tx) error {
		a := access.Guard{Tx: tx, Actor: actor}
		if err := a.MustSee(model.KindDevice, deviceID); err != nil {
			return err
		}
		if err := a.CheckEdit(model.KindAttribute); err != nil {
			return err
		}
		if err := a.CheckEdit(model.KindDevice); err != nil { // the vehicle's configuration changes
			return err
		}
		d, err := tx.Devices().Get(deviceID)
		if err != nil {
			return err
		}
		if value = strings.TrimSpace(value); value == "" {
			if v, ok := d.Attributes[MileageAttribute]; ok && v != nil {
				value = strings.TrimSpace(fmt.Sprint(v))
			}
		}
		if err := checkMileage(value); err != nil {
			return err
		}
		want := &model.ComputedAttribute{Description: "Mileage", Attribute: MileageAttribute,
			Expression: strconv.Quote(value), Type: model.ComputedString}
		id, err := findComputed(a, want)
		if err != nil {
			return err
		}
		if created = id == 0; created {
			if err := checkComputed(want); err != nil {
				return err
			}
			if err := tx.ComputedAttributes().Create(want); err != nil {
				return err
			}
			id = want.ID
		}
		if err := unlinkMileage(a, deviceID, id); err != nil {
			return err
		}
		if actor.ID != 0 { // the attribute is the actor's already or was just made by it
			err := tx.Link(model.Permission{OwnerKind: model.KindUser, OwnerID: actor.ID, PropKind: model.KindAttribute, PropID: id})
			if err != nil {
				return err
			}
		}
		return fl.link(tx, actor, model.Permission{OwnerKind: model.KindDevice, OwnerID: deviceID, PropKind: model.KindAttribute, PropID: id})
	})
	return created, err
}

func checkMileage(v string) error {
	switch {
	case v == "":
		return model.Invalid("mileage is required: the vehicle has no mileage attribute")
	case len(v) > maxMileage || strings.ContainsFunc(v, func(r rune) bool { return !unicode.IsPrint(r) }):
		return model.Invalid("mileage must be printable text of at most %d characters, such as 12 km/l", maxMileage)
	}
	return nil
}

// findComputed is the id of a computed attribute like want the actor sees
// (the lowest), 0 when there is none.
func findComputed(a access.Guard, want *model.ComputedAttribute) (int64, error) {
	var visible map[int64]bool
	if !a.Actor.Administrator {
		var err error
		if visible, err = a.Visible(model.KindAttribute); err != nil {
			return 0, err
		}
	}
	var id int64
	err := a.Tx.ComputedAttributes().List(func(v *model.ComputedAttribute) bool {
		if (visible == nil || visible[v.ID]) && v.Attribute == want.Attribute && v.Expression == want.Expression && v.Type == want.Type {
			id = v.ID
			return false
		}
		return true
	})
	return id, err
}

// unlinkMileage removes the device's direct links to mileage attributes
// other than keep. One the actor cannot see belongs to another account that
// shares the vehicle: it is not the actor's to remove, so the change is
// refused instead.
func unlinkMileage(a access.Guard, deviceID, keep int64) error {
	linked, err := a.Tx.Linked(model.KindDevice, deviceID, model.KindAttribute)
	if err != nil {
		return err
	}
	for _, id := range slices.DeleteFunc(linked, func(id int64) bool { return id == keep }) {
		v, err := a.Tx.ComputedAttributes().Get(id)
		if err != nil || v.Attribute != MileageAttribute {
			continue
		}
		mine, err := a.CanSee(model.KindAttribute, id)
		if err != nil {
			return err
		}
		if !mine {
			return &model.Error{Class: model.ClassConflict, Message: "Mileage set by another account",
				Description: "another account that shares this vehicle set its mileage"}
		}
		if err := a.Tx.Unlink(model.Permission{OwnerKind: model.KindDevice, OwnerID: deviceID, PropKind: model.KindAttribute, PropID: id}); err != nil {
			return err
		}
	}
	return nil
}
