package office

import "github.com/fleetd/fleetd/app/model"

// DropUser is dropUserOffice for the user's deletion, which runs it in its
// transaction (tx); the files' content goes, by the function it returns,
// once that transaction has committed.
func (svc *Service) DropUser(tx model.Tx, userID int64) (func(), error) {
	dropped, err := dropUserOffice(tx, userID)
	return func() { svc.removeFileContent(dropped) }, err
}

// dropUserOffice removes what a user owns in the office, for the user's
// deletion (Core.DeleteUser calls it in its transaction): tickets
// with all their responses, the user's responses on other tickets,
// documents, service records, own service tasks and files. It returns the
// files whose content removeFileContent deletes once the transaction
// committed.
func dropUserOffice(tx model.Tx, userID int64) ([]model.TextID, error) {
	var dropped []model.TextID
	own, err := tickets.grouped(tx, userID)
	if err != nil {
		return nil, err
	}
	for _, t := range own {
		rs, err := responses.grouped(tx, t.GetID())
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			dropped = append(dropped, r.FileIDs...)
			if err := responses.remove(tx, r); err != nil {
				return nil, err
			}
		}
	}
	err = model.FirstError(
		dropOwned(tx, tickets, userID, func(t *model.Ticket) []model.TextID { return t.FileIDs }, &dropped),
		dropEvery(tx, responses, userID, func(r *model.TicketResponse) []model.TextID { return r.FileIDs }, &dropped),
		dropOwned(tx, documents, userID, func(d *model.Document) []model.TextID { return d.FileIDs }, &dropped),
		dropOwned(tx, serviceRecords, userID, func(r *model.ServiceRecord) []model.TextID { return r.FileIDs }, &dropped),
		dropOwned(tx, serviceTasks, userID, nil, &dropped),
		dropOwned(tx, files, userID, func(f *model.File) []model.TextID { return []model.TextID{f.ID} }, &dropped),
	)
	if err != nil {
		return nil, err
	}
	return dropped, dropFiles(tx, dropped)
}

// dropOwned removes the records a cabinet indexes under owner, collecting
// their files.
func dropOwned[T any, P interface {
	*T
	filed
}](tx model.Tx, k cabinet[T, P], owner int64, filesOf func(*T) []model.TextID, dropped *[]model.TextID) error {
	list, err := k.grouped(tx, owner)
	if err != nil {
		return err
	}
	return dropAll(tx, k, list, filesOf, dropped)
}

// dropEvery removes the owner's records of a cabinet grouped otherwise
// (responses, by ticket), reading the whole collection.
func dropEvery[T any, P interface {
	*T
	filed
}](tx model.Tx, k cabinet[T, P], owner int64, filesOf func(*T) []model.TextID, dropped *[]model.TextID) error {
	return dropWhere(tx, k, func(v *T) bool { return P(v).Stamped().Owner() == owner }, filesOf, dropped)
}

func dropAll[T any, P interface {
	*T
	filed
}](tx model.Tx, k cabinet[T, P], list []*T, filesOf func(*T) []model.TextID, dropped *[]model.TextID) error {
	for _, v := range list {
		if filesOf != nil {
			*dropped = append(*dropped, filesOf(v)...)
		}
		if err := k.remove(tx, v); err != nil {
			return err
		}
	}
	return nil
}
