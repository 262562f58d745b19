package storage

import (
	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// The fleet office's records: one table per kind, each filed by owner
// (responses by ticket) in its collection's key set.

// stamped is an office record's pointer type.
type stamped[T any] interface {
	entity[T]
	Stamped() *model.Stamp
}

// filedSpec is the spec of an office collection filed by owner.
func filedSpec[T any, P stamped[T]](c *collection) tableSpec[T] {
	return filedBy(c, func(v *T) int64 { return P(v).Stamped().Owner() })
}

func filedBy[T any](c *collection, group func(*T) int64) tableSpec[T] {
	return tableSpec[T]{bucket: c.bucket(), what: c.what,
		group: &groupIndex[T]{bucket: keySetBucket(c.keys[0]), group: group}}
}

// Each is stored as its stored type (office_stored.go).
var (
	ticketsSpec   = storedAs(filedSpec[model.Ticket](colTickets), storeTicket, loadTicket)
	responsesSpec = storedAs(filedBy(colResponses, func(r *model.TicketResponse) int64 { return int64(r.TicketID) }),
		storeResponse, loadResponse)
	documentsSpec = storedAs(filedSpec[model.Document](colDocuments), storeDocument, loadDocument)
	filesSpec     = storedAs(filedSpec[model.File](colFiles), storeFile, loadFile)
	recordsSpec   = storedAs(filedSpec[model.ServiceRecord](colServiceRecords), storeServiceRecord, loadServiceRecord)
	tasksSpec     = storedAs(filedSpec[model.ServiceTask](colServiceTasks), storeServiceTask, loadServiceTask)
	paymentsSpec  = storedAs(filedSpec[model.Payment](colPayments), storePayment, loadPayment)
)

// The keys of the office's counters and seeds.
const (
	counterTicketNo  = "ticket_no"
	seedServiceTasks = "service_tasks"
)

type officeTx struct{ btx *bolt.Tx }

func (t *tx) Office() model.OfficeTx { return officeTx{t.btx} }

func (o officeTx) Tickets() model.Filing[model.Ticket] {
	return table[model.Ticket, *model.Ticket]{&ticketsSpec, o.btx}
}

func (o officeTx) TicketResponses() model.Filing[model.TicketResponse] {
	return table[model.TicketResponse, *model.TicketResponse]{&responsesSpec, o.btx}
}

func (o officeTx) Documents() model.Filing[model.Document] {
	return table[model.Document, *model.Document]{&documentsSpec, o.btx}
}

func (o officeTx) Files() model.Filing[model.File] {
	return table[model.File, *model.File]{&filesSpec, o.btx}
}

func (o officeTx) ServiceRecords() model.Filing[model.ServiceRecord] {
	return table[model.ServiceRecord, *model.ServiceRecord]{&recordsSpec, o.btx}
}

func (o officeTx) ServiceTasks() model.Filing[model.ServiceTask] {
	return table[model.ServiceTask, *model.ServiceTask]{&tasksSpec, o.btx}
}

func (o officeTx) Payments() model.Filing[model.Payment] {
	return table[model.Payment, *model.Payment]{&paymentsSpec, o.btx}
}

func (o officeTx) NextTicketNo(after int64) (int64, error) {
	counters := collectionBucket(o.btx, ksCounters.bucket())
	n := after
	if v := counters.Get([]byte(counterTicketNo)); v != nil {
		n = keyID(v)
	}
	n++
	return n, counters.Put([]byte(counterTicketNo), idKey(n))
}

func (o officeTx) TasksSeeded() (bool, error) {
	return collectionBucket(o.btx, ksSeeds.bucket()).Get([]byte(seedServiceTasks)) != nil, nil
}

func (o officeTx) SetTasksSeeded() error {
	return collectionBucket(o.btx, ksSeeds.bucket()).Put([]byte(seedServiceTasks), idKey(1))
}
