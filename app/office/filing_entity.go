package office

import "github.com/fleetd/fleetd/app/model"

// dropEntityRecords removes the office's records about a device or driver
// that is being deleted: its documents and (for a vehicle) its service
// history, whoever owns them. It returns the files
// whose content removeFileContent deletes once the transaction committed.
func dropEntityRecords(tx model.Tx, of string, id int64) ([]model.TextID, error) {
	var dropped []model.TextID
	if of == DocumentOfVehicle {
		if err := dropWhere(tx, serviceRecords, func(r *model.ServiceRecord) bool { return int64(r.VehicleID) == id },
			func(r *model.ServiceRecord) []model.TextID { return r.FileIDs }, &dropped); err != nil {
			return nil, err
		}
	}
	err := dropWhere(tx, documents, func(d *model.Document) bool { return d.DocumentOf == of && int64(d.EntityID) == id },
		func(d *model.Document) []model.TextID { return d.FileIDs }, &dropped)
	if err != nil {
		return nil, err
	}
	return dropped, dropFiles(tx, dropped)
}

// dropWhere removes a cabinet's records that match, collecting their files.
func dropWhere[T any, P interface {
	*T
	filed
}](tx model.Tx, k cabinet[T, P], match func(*T) bool, filesOf func(*T) []model.TextID, dropped *[]model.TextID) error {
	all, err := k.all(tx)
	if err != nil {
		return err
	}
	var list []*T
	for _, v := range all {
		if match(v) {
			list = append(list, v)
		}
	}
	return dropAll(tx, k, list, filesOf, dropped)
}

// DropEntity is dropEntityRecords as a remove hook of the fleet's objects:
// the files' content goes, by the function it returns, once the deletion
// is committed.
func (svc *Service) DropEntity(tx model.Tx, of string, id int64) (func(), error) {
	dropped, err := dropEntityRecords(tx, of, id)
	return func() { svc.removeFileContent(dropped) }, err
}
