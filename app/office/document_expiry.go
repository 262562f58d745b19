package office

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// ExpiryNoticeDays are the reminders a document's owner gets: 30, 7 and 1
// days before its expiry date and on the day (0), each at most once.
var ExpiryNoticeDays = []int{30, 7, 1, 0}

// DocumentNotify delivers one reminder to a user (push, through the
// notification sender the composition root wires in).
type DocumentNotify func(userID int64, title, body string) error

// daysUntil counts whole UTC calendar days from now to the expiry date:
// 0 on the day itself, negative once it has passed.
func daysUntil(now time.Time, expiry model.Date) int {
	day := func(t time.Time) time.Time { return t.UTC().Truncate(24 * time.Hour) }
	return int(day(expiry.Time).Sub(day(now)) / (24 * time.Hour))
}

// dueNotice is the most urgent reminder reached by a document days before
// its expiry, and whether it is still unsent. Reaching a stage covers the
// less urgent ones too: a document created 5 days before expiry gets the
// 7-day reminder, never a late 30-day one.
func dueNotice(days int, sent []int) (stage int, due bool) {
	stage = -1
	for _, s := range ExpiryNoticeDays {
		if days <= s {
			stage = s
		}
	}
	return stage, stage >= 0 && !slices.Contains(sent, stage)
}

// NotifyDocumentExpiry sends every due expiry reminder (run daily by
// serve) and records it in the document, so each goes out once. A failed
// delivery is not recorded and is retried on the next run. It returns the
// number sent.
func (svc *Service) NotifyDocumentExpiry(notify DocumentNotify) (int, error) {
	now := svc.now()
	type due struct {
		doc   *model.Document
		stage int
		what  string
	}
	var pending []due
	err := svc.store.View(func(tx model.Tx) error {
		all, err := documents.all(tx)
		for _, d := range all {
			if d.ExpiryDate.IsZero() {
				continue
			}
			if stage, ok := dueNotice(daysUntil(now, d.ExpiryDate), d.ExpiryNotices); ok {
				pending = append(pending, due{d, stage, svc.entityName(tx, d)})
			}
		}
		return err
	})
	if err != nil {
		return 0, err
	}
	sent := 0
	var errs []error
	for _, p := range pending {
		title, body := expiryMessage(p.doc, p.what, p.stage, daysUntil(now, p.doc.ExpiryDate))
		if err := notify(p.doc.Owner(), title, body); err != nil {
			errs = append(errs, fmt.Errorf("document %d: %w", p.doc.ID, err))
			continue
		}
		if err := svc.recordNotice(p.doc, p.stage); err != nil {
			errs = append(errs, err)
			continue
		}
		sent++
	}
	return sent, errors.Join(errs...)
}

// recordNotice marks stage (and the less urgent ones) sent, unless the
// document went or its expiry date changed meanwhile.
func (svc *Service) recordNotice(seen *model.Document, stage int) error {
	return svc.store.Update(func(tx model.Tx) error {
		d, err := documents.of(tx).Get(seen.GetID())
		if model.ClassOf(err) == model.ClassNotFound || (err == nil && !d.ExpiryDate.Equal(seen.ExpiryDate.Time)) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, s := range ExpiryNoticeDays {
			if s >= stage && !slices.Contains(d.ExpiryNotices, s) {
				d.ExpiryNotices = append(d.ExpiryNotices, s)
			}
		}
		return documents.of(tx).Put(d)
	})
}

// entityName names a document's vehicle or driver for a reminder.
func (svc *Service) entityName(tx model.Tx, d *model.Document) string {
	name := ""
	switch d.DocumentOf {
	case DocumentOfVehicle:
		if v, err := tx.Devices().Get(int64(d.EntityID)); err == nil {
			name = v.Name
		}
	case DocumentOfDriver:
		if v, err := tx.Drivers().Get(int64(d.EntityID)); err == nil {
			name = v.Name
		}
	}
	if name == "" {
		name = d.EntityID.String()
	}
	return d.DocumentOf + " " + name
}

func expiryMessage(d *model.Document, what string, stage, days int) (title, body string) {
	date := d.ExpiryDate.UTC().Format(time.DateOnly)
	switch {
	case days < 0:
		return "Document expired", fmt.Sprintf("The %s of %s expired on %s.", d.DocumentType, what, date)
	case stage == 0:
		return "Document expires today", fmt.Sprintf("The %s of %s expires today, %s.", d.DocumentType, what, date)
	case stage == 1:
		return "Document expires tomorrow", fmt.Sprintf("The %s of %s expires on %s.", d.DocumentType, what, date)
	}
	return "Document expiring", fmt.Sprintf("The %s of %s expires in %d days, on %s.", d.DocumentType, what, stage, date)
}

// DaysUntil counts whole UTC days from now to date (negative once passed).
func (svc *Service) DaysUntil(date model.Date) int { return daysUntil(svc.now(), date) }
