package app_test

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
)

// Deleting a device (or driver) takes its extended records with it:
// installation record, documents and service history, not other devices'.
func TestDeleteDeviceRemovesExtendedRecords(t *testing.T) {
	f := newFixture(t)
	other, err := f.core.Fleet.Devices.Create(f.admin, func(d *model.Device) error { d.Name, d.UniqueID = "van", "V1"; return nil })
	if err != nil {
		t.Fatal(err)
	}
	installed, err := f.core.Fleet.InstallDevice(f.admin, func(d *model.Device) error {
		d.Name, d.UniqueID, d.Phone, d.Contact = "bus", "B1", "+100", "Ann"
		return nil
	}, fleet.InstallationDetails{Location: "depot"})
	if err != nil {
		t.Fatal(err)
	}
	bus := installed.Device.ID
	expiry, _ := model.ParseDate(time.Now().AddDate(0, 2, 0).Format(time.DateOnly))
	odometer := 1000.0
	for _, id := range []int64{bus, other.ID} {
		if _, err := f.core.Office.CreateDocument(f.admin, func(d *model.Document) error {
			d.DocumentOf, d.EntityID, d.DocumentType, d.ExpiryDate = "vehicle", model.TextID(id), "insurance", expiry
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.core.Office.CreateServiceRecord(f.admin, func(r *model.ServiceRecord) error {
			r.Title, r.VehicleID, r.ServiceDate, r.Odometer = "oil", model.TextID(id), expiry, &odometer
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.core.Fleet.Devices.Delete(f.admin, bus); err != nil {
		t.Fatal(err)
	}
	docs, _, _ := f.core.Office.Documents(f.admin, model.Query{})
	records, _ := f.core.Office.ServiceRecords(f.admin, office.ServiceQuery{})
	if len(docs) != 1 || int64(docs[0].EntityID) != other.ID || len(records) != 1 || int64(records[0].VehicleID) != other.ID {
		t.Fatalf("after deleting the bus: documents %+v, records %+v; want only the van's", docs, records)
	}
	list, _ := f.core.Fleet.InstalledDevices(f.admin)
	for _, d := range list {
		if d.Device.ID == bus {
			t.Fatalf("installation of the deleted bus still listed: %+v", d)
		}
	}
}
