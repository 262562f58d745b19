package office

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
)

// Document kinds: what a document's entityId refers to.
const (
	DocumentOfVehicle = "vehicle" // a device
	DocumentOfDriver  = "driver"
)

// Computed document statuses. The spec leaves the status a free string; a
// document whose caller set none (or one of these) shows the one its
// expiryDate gives, recomputed on every read.
const (
	DocumentValid    = "valid"
	DocumentExpiring = "expiring"
	DocumentExpired  = "expired"
)

var documents = cabinet[model.Document, *model.Document]{what: "Document", table: model.OfficeTx.Documents}

// Documents is q's window of the actor's documents, newest first, and
// how many the actor has (G1); only the window is read.
func (svc *Service) Documents(actor *model.User, q model.Query) ([]*model.Document, int, error) {
	var list []*model.Document
	var total int
	err := svc.store.View(func(tx model.Tx) (err error) {
		list, total, err = documents.groupedPage(tx, actor.ID, q, true)
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	for _, d := range list {
		svc.presentDocument(d)
	}
	return list, total, nil
}

// ExpiringDocuments lists the actor's documents that have an expiry date,
// soonest first (G5).
func (svc *Service) ExpiringDocuments(actor *model.User) ([]*model.Document, error) {
	list, _, err := svc.Documents(actor, model.Query{})
	return expiringFirst(list), err
}

// expiringFirst keeps the documents that have an expiry date, soonest first.
func expiringFirst(list []*model.Document) []*model.Document {
	list = slices.DeleteFunc(list, func(d *model.Document) bool { return d.ExpiryDate.IsZero() })
	slices.SortStableFunc(list, func(a, b *model.Document) int {
		return cmp.Or(a.ExpiryDate.Compare(b.ExpiryDate.Time), cmp.Compare(a.ID, b.ID))
	})
	return list
}

// Document returns one of the actor's documents.
func (svc *Service) Document(actor *model.User, id int64) (*model.Document, error) {
	return svc.document(actor, ownPath, id)
}

func (svc *Service) document(actor *model.User, p path, id int64) (*model.Document, error) {
	d, err := documents.readVia(svc.store, actor, p, id)
	if err != nil {
		return nil, err
	}
	return svc.presentDocument(d), nil
}

// CreateDocument stores a document apply fills from the request.
func (svc *Service) CreateDocument(actor *model.User, apply func(*model.Document) error) (*model.Document, error) {
	d := &model.Document{}
	if err := limits.FromRequest(apply, d); err != nil {
		return nil, err
	}
	err := svc.store.As(actor).Update(func(tx model.Tx) error {
		if err := svc.prepareDocument(tx, actor, actor, nil, d); err != nil {
			return err
		}
		if err := documents.create(tx, actor.ID, svc.now(), d); err != nil {
			return err
		}
		return attachFiles(tx, actor, actor.ID, ref(refDocument, d.GetID()), nil, d.FileIDs)
	})
	if err != nil {
		return nil, err
	}
	return svc.presentDocument(d), nil
}

// UpdateDocument changes one of the actor's documents; apply fills a copy
// from the request (G3).
func (svc *Service) UpdateDocument(actor *model.User, id int64, apply func(*model.Document) error) (*model.Document, error) {
	return svc.updateDocument(actor, ownPath, id, apply)
}

func (svc *Service) updateDocument(actor *model.User, p path, id int64, apply func(*model.Document) error) (*model.Document, error) {
	var after *model.Document
	err := svc.store.As(actor).Update(func(tx model.Tx) error {
		before, err := documents.reachable(tx, actor, p, id)
		if err != nil {
			return err
		}
		owner, err := ownerOf(tx, actor, before.Owner())
		if err != nil {
			return err
		}
		after = &model.Document{}
		*after = *before
		after.FileIDs = slices.Clone(before.FileIDs)
		if err := limits.FromRequest(apply, after); err != nil {
			return err
		}
		if err := svc.prepareDocument(tx, actor, owner, before, after); err != nil {
			return err
		}
		if err := attachFiles(tx, actor, owner.ID, ref(refDocument, id), before.FileIDs, after.FileIDs); err != nil {
			return err
		}
		return documents.update(tx, before, after, svc.now())
	})
	if err != nil {
		return nil, err
	}
	return svc.presentDocument(after), nil
}

// DeleteDocument removes one of the actor's documents and its files (G4).
func (svc *Service) DeleteDocument(actor *model.User, id int64) error {
	return svc.deleteDocument(actor, ownPath, id)
}

func (svc *Service) deleteDocument(actor *model.User, p path, id int64) error {
	return documents.deleteVia(svc, actor, p, id, func(d *model.Document) []model.TextID { return d.FileIDs })
}

// prepareDocument validates a new (before == nil) or changed document of
// owner and restores what callers may not set.
func (svc *Service) prepareDocument(tx model.Tx, actor, owner *model.User, before, d *model.Document) error {
	if err := (access.Guard{Tx: tx, Actor: actor}).CheckEdit(""); err != nil {
		return err
	}
	d.DocumentOf = strings.ToLower(strings.TrimSpace(d.DocumentOf))
	if err := limits.Required(map[string]*string{"documentOf": &d.DocumentOf, "documentType": &d.DocumentType}); err != nil {
		return err
	}
	if d.EntityID == 0 {
		return model.Invalid("entityId is required")
	}
	if err := checkEntity(tx, actor, owner, "entityId", d.DocumentOf, int64(d.EntityID)); err != nil {
		return err
	}
	var err error
	if d.FileIDs, err = uniqueFileIDs(d.FileIDs); err != nil {
		return err
	}
	for _, s := range []*string{&d.IdentifiedBy, &d.IdentificationNo, &d.VIN, &d.Description, &d.Status, &d.Address, &d.IssuedBy} {
		*s = strings.TrimSpace(*s)
	}
	switch strings.ToLower(d.Status) {
	case DocumentValid, DocumentExpiring, DocumentExpired:
		d.Status = "" // computed, never frozen by a client echoing it back
	}
	d.ExpiryNotices = nil
	if before != nil && before.ExpiryDate.Equal(d.ExpiryDate.Time) {
		d.ExpiryNotices = before.ExpiryNotices
	}
	return nil
}

// checkEntity makes sure the vehicle or driver a request's field refers to
// exists and the record's owner sees it (the actor, unless an administrator
// or manager changes someone else's record); a bad reference is the
// request's fault (400).
func checkEntity(tx model.Tx, actor, owner *model.User, field, of string, id int64) error {
	var kind string
	var err error
	switch of {
	case DocumentOfVehicle:
		kind = model.KindDevice
		_, err = tx.Devices().Get(id)
	case DocumentOfDriver:
		kind = model.KindDriver
		_, err = tx.Drivers().Get(id)
	default:
		return model.Invalid("documentOf must be %s or %s", DocumentOfVehicle, DocumentOfDriver)
	}
	if err == nil {
		err = access.Guard{Tx: tx, Actor: owner}.MustSee(kind, id)
	}
	if model.ClassOf(err) == model.ClassNotFound {
		who := "you"
		if owner.ID != actor.ID {
			who = senderName(owner)
		}
		return model.Invalid("%s %d is not a %s %s can see", field, id, of, who)
	}
	return err
}

// presentDocument fills a computed status in.
func (svc *Service) presentDocument(d *model.Document) *model.Document {
	if d.Status == "" {
		d.Status = documentStatus(d.ExpiryDate, svc.now(), svc.office().ExpiringDays)
	}
	return d
}

// documentStatus: expired after the expiry day, expiring from expiringDays
// before it through the day itself, valid otherwise (or without a date).
func documentStatus(expiry model.Date, now time.Time, expiringDays int) string {
	if expiry.IsZero() {
		return DocumentValid
	}
	switch days := daysUntil(now, expiry); {
	case days < 0:
		return DocumentExpired
	case days <= expiringDays:
		return DocumentExpiring
	}
	return DocumentValid
}
