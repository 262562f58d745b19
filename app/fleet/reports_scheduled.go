package fleet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/calendar"
	"github.com/fleetd/fleetd/app/model"
)

// Mailer sends a message with one attached file (app/delivery's SMTP).
type Mailer interface {
	SendFile(ctx context.Context, to, subject, text, name string, data []byte) error
}

// mailTimeout bounds building and sending one mailed report.
const mailTimeout = 5 * time.Minute

var errNoMailer = model.Invalid("reports cannot be mailed: this server has no mail.smtp configured")

// Mail builds the report's workbook and mails it to the caller (Traccar's
// /reports/{type}/mail). It checks what it can at once and mails in the
// background: a big report takes a while.
func (r *Report) Mail(typ string, p ReportParams) error {
	if r.fl.reports.Mailer == nil {
		return errNoMailer
	}
	if !slices.Contains(WorkbookTypes, typ) {
		return model.Invalid("no workbook for report type %q", typ)
	}
	if strings.TrimSpace(r.actor.Email) == "" {
		return model.Invalid("the account has no e-mail address")
	}
	go func() {
		if err := r.mail(typ, p, fmt.Sprintf("Report: %s", typ)); err != nil {
			r.fl.reports.Log.Warn("report not mailed", "type", typ, "userId", r.actor.ID, "err", err)
		}
	}()
	return nil
}

func (r *Report) mail(typ string, p ReportParams, subject string) error {
	wb, err := r.Workbook(typ, p)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if _, err := wb.WriteTo(&buf); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), mailTimeout)
	defer cancel()
	text := fmt.Sprintf("The %s report from %s to %s is attached.", typ, r.From.In(r.Location).Format("2006-01-02 15:04"),
		r.To.In(r.Location).Format("2006-01-02 15:04 MST"))
	return r.fl.reports.Mailer.SendFile(ctx, r.actor.Email, subject, text, "report.xlsx", buf.Bytes())
}

// newReports are Traccar's scheduled reports: a type with a workbook and
// the calendar whose periods it covers.
func newReports(fl *Service) *Objects[model.Report, *model.Report] {
	return &Objects[model.Report, *model.Report]{
		store: fl.store, kind: model.KindReport,
		table: model.Tx.Reports,
		prepare: func(a access.Guard, _, r *model.Report) error {
			r.Type, r.Description = strings.TrimSpace(r.Type), strings.TrimSpace(r.Description)
			if !slices.Contains(WorkbookTypes, r.Type) {
				return model.Invalid("type must be one of %s", strings.Join(WorkbookTypes, ", "))
			}
			if r.CalendarID == 0 {
				return model.Invalid("calendarId is required: the report runs for each of its periods")
			}
			if r.Attributes == nil {
				r.Attributes = model.Attributes{}
			}
			return checkCalendar(a, r.CalendarID)
		},
	}
}

// RunScheduledReports mails the scheduled reports whose calendar periods
// ended in (after, upTo]: each to each of its users, over the devices and
// groups linked to the report that the user sees (Traccar's TaskReports;
// serve runs it every 15 minutes). One failure does not stop the others;
// it returns how many were mailed and the first error.
func (fl *Service) RunScheduledReports(after, upTo time.Time) (int, error) {
	type job struct {
		report *model.Report
		users  []*model.User
		q      ReportQuery
		period calendar.Period
	}
	var jobs []job
	err := fl.store.View(func(tx model.Tx) error {
		var list []*model.Report
		if err := tx.Reports().List(func(r *model.Report) bool { list = append(list, r); return true }); err != nil {
			return err
		}
		for _, r := range list {
			c, err := tx.Calendars().Get(r.CalendarID)
			if errors.Is(err, model.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			cal, err := calendar.Parse(c.Data)
			if err != nil {
				continue
			}
			periods := cal.Ended(after, upTo)
			if len(periods) == 0 {
				continue
			}
			j := job{report: r}
			if j.q.DeviceIDs, err = tx.Owners(model.KindReport, r.ID, model.KindDevice); err != nil {
				return err
			}
			if j.q.GroupIDs, err = tx.Owners(model.KindReport, r.ID, model.KindGroup); err != nil {
				return err
			}
			userIDs, err := tx.Owners(model.KindReport, r.ID, model.KindUser)
			if err != nil {
				return err
			}
			for _, id := range userIDs {
				if u, err := tx.Users().Get(id); err == nil && !u.Disabled {
					j.users = append(j.users, u)
				}
			}
			for _, p := range periods {
				j.period = p
				jobs = append(jobs, j)
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	if len(jobs) > 0 && fl.reports.Mailer == nil {
		return 0, errNoMailer
	}
	sent := 0
	var first error
	for _, j := range jobs {
		for _, u := range j.users {
			q := j.q
			q.From, q.To = j.period.Start, j.period.End
			ok, err := fl.mailScheduled(u, j.report, q)
			if ok {
				sent++
			}
			if err != nil && first == nil {
				first = fmt.Errorf("report %d to user %d: %w", j.report.ID, u.ID, err)
			}
		}
	}
	return sent, first
}

// mailScheduled runs one scheduled report as user u: u's own access
// decides which of its devices the report covers. A report linked to no
// device nor group covers every device the user sees, as in Traccar; one
// whose devices and groups the user sees none of is not sent.
func (fl *Service) mailScheduled(u *model.User, rep *model.Report, q ReportQuery) (bool, error) {
	linked := len(q.DeviceIDs)+len(q.GroupIDs) > 0
	q.DeviceIDs = visibleOnly(fl, u, model.KindDevice, q.DeviceIDs)
	q.GroupIDs = visibleOnly(fl, u, model.KindGroup, q.GroupIDs)
	if linked && len(q.DeviceIDs)+len(q.GroupIDs) == 0 {
		return false, nil
	}
	r, err := fl.Report(u, q)
	if err != nil {
		return false, err
	}
	subject := "Report: " + rep.Type
	if rep.Description != "" {
		subject = rep.Description
	}
	daily, _ := rep.Attributes["daily"].(bool)
	err = r.mail(rep.Type, ReportParams{Daily: daily}, subject)
	return err == nil, err
}

// visibleOnly keeps the ids of kind that u sees.
func visibleOnly(fl *Service, u *model.User, kind string, ids []int64) []int64 {
	var out []int64
	fl.store.View(func(tx model.Tx) error {
		a := access.Guard{Tx: tx, Actor: u}
		for _, id := range ids {
			if ok, err := a.CanSee(kind, id); err == nil && ok {
				out = append(out, id)
			}
		}
		return nil
	})
	return out
}
