package dashboard

import (
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// ticketsPerPage is the ticket list's page size.
const ticketsPerPage = 25

func (d *Dashboard) ticketRoutes() []route {
	return []route{
		{"GET", "/tickets", d.tickets},
		{"GET", "/tickets/:id", d.ticket},
		{"POST", "/tickets/:id/responses", d.ticketRespond},
		{"POST", "/tickets/:id/status", d.ticketStatus},
	}
}

// ticketList is one page of the filtered ticket list.
type ticketList struct {
	Query, Status string
	Owners        ownerFilter
	Tickets       []*model.Ticket
	Page, Pages   int
	Total         int
}

// ticketStatuses are the filter's choices, in workflow order.
var ticketStatuses = []string{office.TicketOpen, office.TicketPending, office.TicketInProgress, office.TicketResolved, office.TicketClosed}

func (d *Dashboard) tickets(c *fiber.Ctx) error {
	owners, err := d.readOwnerFilter(c)
	if err != nil {
		return err
	}
	v, err := d.loadTickets(d.officeAdmin(c), owners, c.Query("q"), c.Query("status"), c.QueryInt("page", 1))
	if err != nil {
		return err
	}
	if hxTarget(c, "ticket-list") {
		return render(c, fiber.StatusOK, ticketListBody(v))
	}
	return render(c, fiber.StatusOK, ticketsPage(d.page(c, "Tickets", "tickets"), v))
}

func (d *Dashboard) loadTickets(officeAdmin office.Admin, owners ownerFilter, query, status string, page int) (ticketList, error) {
	v := ticketList{Query: strings.TrimSpace(query), Status: status, Owners: owners}
	if status != "" && !slices.Contains(ticketStatuses, status) {
		return v, model.Invalid("status must be one of %s", strings.Join(ticketStatuses, ", "))
	}
	all, err := officeAdmin.Tickets(owners.ID, office.TicketQuery{Search: v.Query, Status: status})
	if err != nil {
		return v, err
	}
	v.Total = len(all)
	v.Pages = max(1, (len(all)+ticketsPerPage-1)/ticketsPerPage)
	v.Page = min(max(page, 1), v.Pages)
	from := (v.Page - 1) * ticketsPerPage
	v.Tickets = all[from:min(from+ticketsPerPage, len(all))]
	return v, nil
}

// ticketThread is a ticket with its conversation and what may be done next.
type ticketThread struct {
	Ticket    *model.Ticket
	Files     []*model.File
	Responses []responseView
	Next      []string
	Problem   string
	Draft     string
}

type responseView struct {
	Response *model.TicketResponse
	Files    []*model.File
}

func (d *Dashboard) ticket(c *fiber.Ctx) error {
	return d.renderTicket(c, fiber.StatusOK, "", nil)
}

func (d *Dashboard) renderTicket(c *fiber.Ctx, status int, draft string, problem error) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	actor, officeAdmin := user(c), d.officeAdmin(c)
	t, err := officeAdmin.Ticket(id)
	if err != nil {
		return err
	}
	responses, _, err := officeAdmin.TicketResponses(id, model.Query{})
	if err != nil {
		return err
	}
	v := ticketThread{Ticket: t, Next: office.TicketMoves(actor, t), Problem: problemText(problem), Draft: draft}
	if v.Files, err = d.files(actor, t.FileIDs); err != nil {
		return err
	}
	for _, r := range responses {
		files, err := d.files(actor, r.FileIDs)
		if err != nil {
			return err
		}
		v.Responses = append(v.Responses, responseView{Response: r, Files: files})
	}
	title := "Ticket #" + strconv.FormatInt(t.TicketNo, 10)
	return render(c, status, ticketPage(d.page(c, title, "tickets"), v))
}

func (d *Dashboard) ticketRespond(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	actor := user(c)
	message := c.FormValue("message")
	fileIDs, err := d.uploadAll(c, actor, "files")
	if err == nil {
		_, err = d.officeAdmin(c).Respond(id, message, fileIDs)
	}
	if err != nil {
		d.discardUploads(actor, fileIDs)
		return d.formFailed(c, err, func(status int) error { return d.renderTicket(c, status, message, err) })
	}
	return redirect(c, Prefix+"/tickets/"+itoa(id)+"#latest")
}

func (d *Dashboard) ticketStatus(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	if _, err := d.officeAdmin(c).SetTicketStatus(id, c.FormValue("status")); err != nil {
		return d.formFailed(c, err, func(status int) error { return d.renderTicket(c, status, "", err) })
	}
	return redirect(c, Prefix+"/tickets/"+itoa(id))
}

func ticketURL(t *model.Ticket) string { return Prefix + "/tickets/" + t.ID.String() }

// ticketPageURL is the list's URL for another page with the same filters.
func ticketPageURL(v ticketList, page int) string {
	return Prefix + "/tickets?" + queryString("q", v.Query, "status", v.Status, "owner", v.Owners.Owner, "page", itoa(page))
}

// statusLabel is a ticket status as people read it.
func statusLabel(s string) string { return strings.ReplaceAll(s, "_", " ") }

func ticketStatusOptions() []option {
	out := []option{{"", "All statuses"}}
	for _, s := range ticketStatuses {
		out = append(out, option{s, statusLabel(s)})
	}
	return out
}

// ticketMoves are the status choices from the ticket's current status.
func ticketMoves(next []string) []option {
	out := make([]option, 0, len(next))
	for _, s := range next {
		out = append(out, option{s, statusLabel(s)})
	}
	return out
}

// latestID marks the newest response, which a new response's redirect
// scrolls to.
func latestID(i, n int) templ.Attributes {
	if i == n-1 {
		return templ.Attributes{"id": "latest"}
	}
	return nil
}
