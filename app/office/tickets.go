package office

import (
	"slices"
	"strings"

	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
)

// Support ticket statuses. A ticket starts open; pending means support
// waits for the user's answer; in_progress that support works on it;
// resolved that support considers it solved; closed that it is done.
const (
	TicketOpen       = "open"
	TicketPending    = "pending"
	TicketInProgress = "in_progress"
	TicketResolved   = "resolved"
	TicketClosed     = "closed"
)

// TicketTransitions are the status changes support may make: administrators,
// and managers on the administrative path for the users they manage. The
// creator may close their ticket from any status and reopen a resolved
// one; the creator's answer to a pending or resolved ticket reopens it.
var TicketTransitions = map[string][]string{
	TicketOpen:       {TicketPending, TicketInProgress, TicketResolved, TicketClosed},
	TicketPending:    {TicketOpen, TicketInProgress, TicketResolved, TicketClosed},
	TicketInProgress: {TicketPending, TicketResolved, TicketClosed},
	TicketResolved:   {TicketOpen, TicketClosed},
	TicketClosed:     {TicketOpen},
}

// TicketCategories is the spec's category enum; "general" when none is given.
var TicketCategories = []string{"payment", "login", "dashboard", "app", "tracking", "report", "alert", "data",
	"general", "technical", "fraud", "navigation", "other"}

// firstTicketNo is the number before the first ticket's: numbers start at
// 1001 so they never look like ids.
const firstTicketNo = 1000

var tickets = cabinet[model.Ticket, *model.Ticket]{what: "Ticket", table: model.OfficeTx.Tickets}

// TicketQuery filters F1's list.
type TicketQuery struct {
	// Search matches title, user info and device info, case-insensitively.
	Search string
	// Status, when set, keeps tickets in that status.
	Status string
}

// Tickets lists the actor's tickets (an administrator's: everyone's),
// newest first.
func (svc *Service) Tickets(actor *model.User, q TicketQuery) ([]*model.Ticket, error) {
	return svc.tickets(actor, supportPath, 0, q)
}

// tickets lists the tickets p reaches (owner's only, unless 0) that match
// q, newest first.
func (svc *Service) tickets(actor *model.User, p path, owner int64, q TicketQuery) ([]*model.Ticket, error) {
	var list []*model.Ticket
	err := svc.store.View(func(tx model.Tx) (err error) {
		list, err = tickets.listVia(tx, actor, p, owner)
		return err
	})
	if err != nil {
		return nil, err
	}
	search := strings.ToLower(strings.TrimSpace(q.Search))
	list = slices.DeleteFunc(list, func(t *model.Ticket) bool {
		text := strings.ToLower(t.Title + "\n" + t.UserInfo + "\n" + t.DeviceInfo)
		return !strings.Contains(text, search) || (q.Status != "" && t.Status != q.Status)
	})
	slices.Reverse(list)
	return list, nil
}

// Ticket returns a ticket of the actor (an administrator: anyone's).
func (svc *Service) Ticket(actor *model.User, id int64) (*model.Ticket, error) {
	return tickets.readVia(svc.store, actor, supportPath, id)
}

// CreateTicket opens a ticket that apply fills from the request.
func (svc *Service) CreateTicket(actor *model.User, apply func(*model.Ticket) error) (*model.Ticket, error) {
	t := &model.Ticket{}
	if err := limits.FromRequest(apply, t); err != nil {
		return nil, err
	}
	if err := prepareTicket(actor, t); err != nil {
		return nil, err
	}
	err := svc.store.As(actor).Update(func(tx model.Tx) error {
		no, err := tx.Office().NextTicketNo(firstTicketNo)
		if err != nil {
			return err
		}
		t.TicketNo, t.Status = no, TicketOpen
		if err := tickets.create(tx, actor.ID, svc.now(), t); err != nil {
			return err
		}
		return attachFiles(tx, actor, actor.ID, ref(refTicket, t.GetID()), nil, t.FileIDs)
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// prepareTicket validates a new ticket and fills what the service derives.
func prepareTicket(actor *model.User, t *model.Ticket) error {
	if err := limits.Required(map[string]*string{"title": &t.Title}); err != nil {
		return err
	}
	t.Category = strings.ToLower(strings.TrimSpace(t.Category))
	if t.Category == "" {
		t.Category = "general"
	}
	if !slices.Contains(TicketCategories, t.Category) {
		return model.Invalid("category must be one of %s", strings.Join(TicketCategories, ", "))
	}
	var err error
	if t.FileIDs, err = uniqueFileIDs(t.FileIDs); err != nil {
		return err
	}
	if strings.TrimSpace(t.UserInfo) == "" {
		t.UserInfo = describeUser(actor)
	}
	if strings.TrimSpace(t.DeviceInfo) == "" && t.Device != nil {
		t.DeviceInfo = strings.TrimSpace(t.Device.Name + " " + parenthesized(t.Device.Value))
	}
	return nil
}

// describeUser is the user info a ticket carries when the client sent none,
// so support (and F1's search) can find the person.
func describeUser(u *model.User) string {
	parts := []string{u.Name}
	if u.Email != "" {
		parts = append(parts, "<"+u.Email+">")
	}
	if u.Phone != "" {
		parts = append(parts, u.Phone)
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

func parenthesized(s string) string {
	if s = strings.TrimSpace(s); s == "" {
		return ""
	}
	return "(" + s + ")"
}

// DeleteTicket removes a ticket the actor created, with its responses and
// every file attached to them.
func (svc *Service) DeleteTicket(actor *model.User, id int64) error {
	var dropped []model.TextID
	err := svc.store.As(actor).Update(func(tx model.Tx) error {
		t, err := tickets.get(tx, id, support(actor).has)
		if err != nil {
			return err
		}
		if t.Owner() != actor.ID {
			return model.Forbidden("only the creator may delete a ticket; close it instead")
		}
		rs, err := responses.grouped(tx, id)
		if err != nil {
			return err
		}
		dropped = append(dropped, t.FileIDs...)
		for _, r := range rs {
			dropped = append(dropped, r.FileIDs...)
			if err := responses.remove(tx, r); err != nil {
				return err
			}
		}
		return model.FirstError(dropFiles(tx, dropped), tickets.remove(tx, t))
	})
	if err == nil {
		svc.removeFileContent(dropped)
	}
	return err
}

// SetTicketStatus changes a ticket's status along TicketMoves.
func (svc *Service) SetTicketStatus(actor *model.User, id int64, status string) (*model.Ticket, error) {
	return svc.setTicketStatus(actor, supportPath, id, status)
}

func (svc *Service) setTicketStatus(actor *model.User, p path, id int64, status string) (*model.Ticket, error) {
	status = strings.ToLower(strings.TrimSpace(status))
	if _, known := TicketTransitions[status]; !known {
		return nil, model.Invalid("status must be one of open, pending, in_progress, resolved, closed")
	}
	var t *model.Ticket
	err := svc.store.As(actor).Update(func(tx model.Tx) error {
		before, err := tickets.reachable(tx, actor, p, id)
		if err != nil {
			return err
		}
		if before.Status == status {
			t = before
			return nil
		}
		if !slices.Contains(TicketMoves(actor, before), status) {
			if !supports(actor, before) {
				return model.Forbidden("you may close your ticket or reopen a resolved one; other changes are support's")
			}
			return model.Invalid("a ticket cannot go from %s to %s", before.Status, status)
		}
		after := *before
		after.Status = status
		t = &after
		return tickets.update(tx, before, t, svc.now())
	})
	return t, err
}

// supports reports whether the actor answers a ticket it reached as
// support: administrators always, others on someone else's ticket (a
// manager, on the administrative path, for the users it manages).
func supports(actor *model.User, t *model.Ticket) bool {
	return actor.Administrator || t.Owner() != actor.ID
}

// TicketMoves are the statuses the actor may move a ticket it reached to:
// support's along TicketTransitions, the creator's otherwise (close it
// from any status, reopen a resolved one).
func TicketMoves(actor *model.User, t *model.Ticket) []string {
	switch {
	case supports(actor, t):
		return TicketTransitions[t.Status]
	case t.Status == TicketResolved:
		return []string{TicketOpen, TicketClosed}
	case t.Status == TicketClosed:
		return nil
	}
	return []string{TicketClosed}
}
