package office

import (
	"strings"

	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
)

// Responses are indexed by ticket, so a conversation reads without a scan.
var responses = cabinet[model.TicketResponse, *model.TicketResponse]{what: "Response", table: model.OfficeTx.TicketResponses}

// TicketResponses is q's window of a readable ticket's responses,
// oldest first, and how many it has (F5); only the window is read.
func (svc *Service) TicketResponses(actor *model.User, ticketID int64, q model.Query) ([]*model.TicketResponse, int, error) {
	return svc.ticketResponses(actor, supportPath, ticketID, q)
}

func (svc *Service) ticketResponses(actor *model.User, p path, ticketID int64, q model.Query) ([]*model.TicketResponse, int, error) {
	var list []*model.TicketResponse
	var total int
	err := svc.store.View(func(tx model.Tx) error {
		if _, err := tickets.reachable(tx, actor, p, ticketID); err != nil {
			return err
		}
		var err error
		list, total, err = responses.groupedPage(tx, ticketID, q, false)
		return err
	})
	return list, total, err
}

// Respond adds a response to a ticket the actor created (administrators:
// any ticket). A closed ticket takes no responses; the creator's answer to
// a pending or resolved ticket reopens it.
func (svc *Service) Respond(actor *model.User, ticketID int64, message string, fileIDs []model.TextID) (*model.TicketResponse, error) {
	return svc.respond(actor, supportPath, ticketID, message, fileIDs)
}

func (svc *Service) respond(actor *model.User, p path, ticketID int64, message string, fileIDs []model.TextID) (*model.TicketResponse, error) {
	r := &model.TicketResponse{TicketID: model.TextID(ticketID), Message: strings.TrimSpace(message),
		SenderInfo: model.SenderInfo{Name: senderName(actor), ID: model.TextID(actor.ID)}}
	if err := model.FirstError(limits.Check(r), checkResponse(r, fileIDs)); err != nil {
		return nil, err
	}
	err := svc.store.As(actor).Update(func(tx model.Tx) error {
		t, err := tickets.reachable(tx, actor, p, ticketID)
		if err != nil {
			return err
		}
		if t.Status == TicketClosed {
			return model.Invalid("the ticket is closed; reopen it to respond")
		}
		if err := responses.create(tx, actor.ID, svc.now(), r); err != nil {
			return err
		}
		if err := attachFiles(tx, actor, actor.ID, ref(refResponse, r.GetID()), nil, r.FileIDs); err != nil {
			return err
		}
		if t.Owner() == actor.ID && (t.Status == TicketPending || t.Status == TicketResolved) {
			after := *t
			after.Status = TicketOpen
			return tickets.update(tx, t, &after, svc.now())
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// checkResponse validates a response's message and files (set on r).
func checkResponse(r *model.TicketResponse, fileIDs []model.TextID) error {
	var err error
	if r.FileIDs, err = uniqueFileIDs(fileIDs); err != nil {
		return err
	}
	if r.Message == "" && len(r.FileIDs) == 0 {
		return model.Invalid("a response needs content or files")
	}
	return nil
}

func senderName(u *model.User) string {
	if name := strings.TrimSpace(u.Name); name != "" {
		return name
	}
	return u.Email
}

// authoredResponse finds a response only its author may change: to whom may
// read the ticket it is forbidden, to everyone else it does not exist.
func (svc *Service) authoredResponse(tx model.Tx, actor *model.User, id int64) (*model.TicketResponse, error) {
	r, err := responses.of(tx).Get(id)
	if err != nil {
		return nil, err
	}
	if r.Owner() == actor.ID {
		return r, nil
	}
	if _, err := tickets.get(tx, int64(r.TicketID), support(actor).has); err != nil {
		return nil, model.NotFound(responses.what)
	}
	return nil, model.Forbidden("only the author may change a response")
}

// UpdateResponse changes the message (and files) of the actor's response;
// apply fills a copy from the request.
func (svc *Service) UpdateResponse(actor *model.User, id int64, apply func(*model.TicketResponse) error) (*model.TicketResponse, error) {
	var after *model.TicketResponse
	err := svc.store.As(actor).Update(func(tx model.Tx) error {
		before, err := svc.authoredResponse(tx, actor, id)
		if err != nil {
			return err
		}
		after = &model.TicketResponse{}
		*after = *before
		if err := limits.FromRequest(apply, after); err != nil {
			return err
		}
		after.TicketID, after.SenderInfo, after.Message = before.TicketID, before.SenderInfo, strings.TrimSpace(after.Message)
		if err := checkResponse(after, after.FileIDs); err != nil {
			return err
		}
		if err := attachFiles(tx, actor, actor.ID, ref(refResponse, id), before.FileIDs, after.FileIDs); err != nil {
			return err
		}
		return responses.update(tx, before, after, svc.now())
	})
	if err != nil {
		return nil, err
	}
	return after, nil
}

// DeleteResponse removes the actor's response and its files.
func (svc *Service) DeleteResponse(actor *model.User, id int64) error {
	var dropped []model.TextID
	err := svc.store.As(actor).Update(func(tx model.Tx) error {
		r, err := svc.authoredResponse(tx, actor, id)
		if err != nil {
			return err
		}
		dropped = r.FileIDs
		return model.FirstError(dropFiles(tx, dropped), responses.remove(tx, r))
	})
	if err == nil {
		svc.removeFileContent(dropped)
	}
	return err
}
