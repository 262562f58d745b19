package ingest

import (
	"errors"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/live"
	"github.com/fleetd/fleetd/app/model"
)

// CommandType is one entry of B7's answer.
type CommandType struct {
	Type string `json:"type"`
}

// deviceProtocol is the protocol of the device's live connection, or of its
// latest position; "" when the device has never reported.
func (ig *Service) deviceProtocol(tx model.Tx, deviceID int64) string {
	if conn := ig.liveConn(deviceID); conn != nil {
		return conn.Protocol()
	}
	if p, err := tx.LatestPosition(deviceID); err == nil {
		return p.Protocol
	}
	return ""
}

// CommandTypes implements B7: the types the device's protocol (or the named
// protocol, or any protocol) can encode. SMS delivery (textChannel) needs
// an SMS gateway fleetd does not have yet, so that list is empty.
func (ig *Service) CommandTypes(actor *model.User, deviceID int64, protocol string, textChannel bool) ([]CommandType, error) {
	if deviceID != 0 {
		err := ig.store.View(func(tx model.Tx) error {
			if err := (access.Guard{Tx: tx, Actor: actor}).MustSee(model.KindDevice, deviceID); err != nil {
				return err
			}
			protocol = ig.deviceProtocol(tx, deviceID)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	out := []CommandType{}
	if textChannel {
		return out, nil
	}
	seen := map[string]bool{}
	for name, types := range ig.commandTypes {
		if protocol != "" && name != protocol {
			continue
		}
		for _, t := range types {
			if !seen[t] {
				seen[t] = true
				out = append(out, CommandType{Type: t})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Type < out[j].Type })
	return out, nil
}

// SendableCommands implements B5: the saved commands the actor sees that
// the device's protocol can encode.
func (ig *Service) SendableCommands(actor *model.User, deviceID int64) ([]*model.Command, error) {
	types, err := ig.CommandTypes(actor, deviceID, "", false)
	if err != nil {
		return nil, err
	}
	saved, err := ig.fleet.Commands.List(actor, model.Query{})
	if err != nil {
		return nil, err
	}
	out := []*model.Command{}
	for _, cmd := range saved {
		if slices.Contains(types, CommandType{Type: cmd.Type}) && !cmd.TextChannel {
			out = append(out, cmd)
		}
	}
	return out, nil
}

// CommandsAllowed tells whether the actor may send commands to the device
// (SendCommand's checks before the command itself): 404 for a device the
// actor does not see, 403 for a read-only account or one whose commands
// are limited, so a page can say so before offering to send one.
func (ig *Service) CommandsAllowed(actor *model.User, deviceID int64) error {
	return ig.store.View(func(tx model.Tx) error {
		a := access.Guard{Tx: tx, Actor: actor}
		if err := a.MustSee(model.KindDevice, deviceID); err != nil {
			return err
		}
		return a.CheckEdit(model.KindCommand)
	})
}

// commandRefused is CheckEdit's refusal as B6 answers it: a 400, as the
// spec's Errors table says.
func commandRefused(err error) error {
	if e, ok := model.AsError(err); ok && e.Class == model.ClassForbidden {
		return &model.Error{Class: model.ClassInvalid, Message: "Command not allowed", Description: e.Description}
	}
	return err
}

// SendCommand implements B6. A saved command (cmd.ID > 0) is sent by id to
// cmd.DeviceID. It is written to the live connection (queued false) or, with
// the device offline, queued until it connects (queued true). Permission and
// type problems are 400s, as the spec's Errors table says for B6.
func (ig *Service) SendCommand(actor *model.User, cmd *model.Command) (sent *model.Command, queued bool, err error) {
	if err := limits.Check(cmd); err != nil { // a command may be queued in the store
		return nil, false, err
	}
	var protocol string
	err = ig.store.View(func(tx model.Tx) error {
		a := access.Guard{Tx: tx, Actor: actor}
		if err := a.CheckEdit(model.KindCommand); err != nil {
			return commandRefused(err)
		}
		if cmd.ID > 0 {
			if err := a.MustSee(model.KindCommand, cmd.ID); err != nil {
				return err
			}
			saved, err := tx.Commands().Get(cmd.ID)
			if err != nil {
				return err
			}
			deviceID := cmd.DeviceID
			cmd = saved
			cmd.DeviceID = deviceID
		}
		if cmd.DeviceID == 0 {
			return model.Invalid("deviceId is required")
		}
		if err := a.MustSee(model.KindDevice, cmd.DeviceID); err != nil {
			return err
		}
		protocol = ig.deviceProtocol(tx, cmd.DeviceID)
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	cmd.Type = strings.TrimSpace(cmd.Type)
	if cmd.TextChannel {
		return nil, false, model.Invalid("sending commands by SMS is not configured on this server")
	}
	if cmd.Type == "" {
		return nil, false, model.Invalid("type is required")
	}
	if protocol != "" && !slices.Contains(ig.commandTypes[protocol], cmd.Type) {
		return nil, false, model.Invalid("command type %q is not supported by the %s protocol", cmd.Type, protocol)
	}
	if cmd.Attributes == nil {
		cmd.Attributes = model.Attributes{}
	}
	if conn := ig.liveConn(cmd.DeviceID); conn != nil {
		err := conn.Send(cmd)
		if err == nil || model.ClassOf(err) == model.ClassInvalid {
			return cmd, false, err
		}
		ig.log.Info("command write failed, queueing", "deviceId", cmd.DeviceID, "err", err)
	}
	q := &model.QueuedCommand{Command: *cmd, Queued: ig.now().UTC()}
	q.ID = 0
	if err := ig.storeQueued([]*model.QueuedCommand{q}); err != nil {
		return nil, false, err
	}
	return cmd, true, nil
}

// storeQueued adds commands of one device to the queue, counting them in
// the queue index first (see queueIndex).
func (ig *Service) storeQueued(qs []*model.QueuedCommand) error {
	if err := ig.queue.load(ig); err != nil {
		return err
	}
	device := qs[0].DeviceID
	ig.queue.add(device, len(qs))
	err := ig.store.Update(func(tx model.Tx) error {
		for _, q := range qs {
			q.ID = 0
			if err := tx.QueuedCommands().Create(q); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		ig.queue.remove(device, len(qs))
	}
	return err
}

// takeQueued removes and returns a device's queued commands, oldest first.
// It runs for every OsmAnd request and every connection and almost always
// finds nothing: the queue index answers that without a transaction.
func (ig *Service) takeQueued(deviceID int64) ([]*model.QueuedCommand, error) {
	if err := ig.queue.load(ig); err != nil || !ig.queue.any(deviceID) {
		return nil, err
	}
	var out []*model.QueuedCommand
	err := ig.store.Update(func(tx model.Tx) error {
		out = out[:0]
		err := tx.QueuedCommands().List(func(q *model.QueuedCommand) bool {
			if q.DeviceID == deviceID {
				out = append(out, q)
			}
			return true
		})
		for _, q := range out {
			if err == nil {
				err = tx.QueuedCommands().Delete(q.ID)
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	ig.queue.remove(deviceID, len(out))
	return out, nil
}

// TakeQueued hands a connectionless protocol (OsmAnd replies over HTTP) the
// device's queued commands and records them as sent.
func (ig *Service) TakeQueued(deviceID int64) ([]*model.Command, error) {
	queued, err := ig.takeQueued(deviceID)
	out := make([]*model.Command, 0, len(queued))
	for _, q := range queued {
		out = append(out, &q.Command)
		ig.record(deviceID, model.EventQueuedCommandSent, model.Attributes{"type": q.Type})
	}
	return out, err
}

// deliverQueued writes queued commands to a fresh connection; a command the
// connection refuses goes back to the queue.
func (ig *Service) deliverQueued(deviceID int64, conn DeviceConn) {
	queued, err := ig.takeQueued(deviceID)
	if err != nil {
		ig.log.Warn("reading queued commands failed", "deviceId", deviceID, "err", err)
	}
	for i, q := range queued {
		if err := conn.Send(&q.Command); err != nil {
			ig.log.Warn("queued command not delivered", "deviceId", deviceID, "type", q.Type, "err", err)
			if model.ClassOf(err) == model.ClassInvalid {
				continue // the protocol can never encode it: drop, do not retry forever
			}
			ig.requeue(queued[i:])
			return
		}
		ig.record(deviceID, model.EventQueuedCommandSent, model.Attributes{"type": q.Type})
	}
}

func (ig *Service) requeue(qs []*model.QueuedCommand) {
	if err := ig.storeQueued(qs); err != nil {
		ig.log.Error("requeueing commands failed", "err", err)
	}
}

// CommandResult records a device's answer to a command.
func (ig *Service) CommandResult(deviceID int64, result string) error {
	return ig.record(deviceID, model.EventCommandResult, model.Attributes{"result": result})
}

// record stores and broadcasts one event not tied to a position.
func (ig *Service) record(deviceID int64, typ string, attrs model.Attributes) error {
	e := &model.Event{Type: typ, EventTime: ig.now().UTC(), DeviceID: deviceID, Attributes: attrs}
	err := ig.store.Batch(func(tx model.Tx) error { e.ID = 0; return tx.AddEvent(e) })
	if err != nil && !errors.Is(err, model.ErrNotFound) {
		ig.log.Warn("event not stored", "type", typ, "deviceId", deviceID, "err", err)
		return err
	}
	ig.hub.Publish(deviceID, live.Update{Events: []*model.Event{e}})
	return nil
}

// GroupSend is what a command to a group did: the devices it was written
// to, those it waits for in their queues, and those that refused it.
type GroupSend struct {
	Sent, Queued []*model.Command
	Refused      map[int64]string // device id -> why
}

// SendCommandToGroup sends cmd (or the saved command cmd.ID) to every
// device the actor sees in group groupID and its sub-groups, as Traccar's
// POST /commands/send?groupId= does. A device whose protocol cannot take
// the command is listed as refused; only when every device refused is it
// an error.
func (ig *Service) SendCommandToGroup(actor *model.User, cmd *model.Command, groupID int64) (GroupSend, error) {
	var devices []int64
	err := ig.store.View(func(tx model.Tx) error {
		a := access.Guard{Tx: tx, Actor: actor}
		if err := model.FirstError(a.MustSee(model.KindGroup, groupID), a.Exists(model.KindGroup, groupID)); err != nil {
			return err
		}
		groups := map[int64]bool{groupID: true}
		if err := a.GroupClosure(groups); err != nil {
			return err
		}
		return a.EachDevice(func(d *model.Device) error {
			if groups[d.GroupID] {
				devices = append(devices, d.ID)
			}
			return nil
		})
	})
	if err != nil {
		return GroupSend{}, err
	}
	if len(devices) == 0 {
		return GroupSend{}, model.Invalid("the group has no device to send to")
	}
	out := GroupSend{Refused: map[int64]string{}}
	var last error
	for _, id := range devices {
		c := *cmd
		c.DeviceID, c.Attributes = id, maps.Clone(cmd.Attributes)
		sent, queued, err := ig.SendCommand(actor, &c)
		switch {
		case err != nil && model.ClassOf(err) != model.ClassInvalid:
			return out, err
		case err != nil:
			out.Refused[id], last = err.Error(), err
		case queued:
			out.Queued = append(out.Queued, sent)
		default:
			out.Sent = append(out.Sent, sent)
		}
	}
	if len(out.Sent)+len(out.Queued) == 0 {
		return out, last
	}
	return out, nil
}
