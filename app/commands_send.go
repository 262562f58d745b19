package app

import (
	"errors"
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
func (c *Core) deviceProtocol(tx model.Tx, deviceID int64) string {
	if conn := c.liveConn(deviceID); conn != nil {
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
func (c *Core) CommandTypes(actor *model.User, deviceID int64, protocol string, textChannel bool) ([]CommandType, error) {
	if deviceID != 0 {
		err := c.store.View(func(tx model.Tx) error {
			if err := (access.Guard{Tx: tx, Actor: actor}).MustSee(model.KindDevice, deviceID); err != nil {
				return err
			}
			protocol = c.deviceProtocol(tx, deviceID)
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
	for name, types := range c.opts.CommandTypes {
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
func (c *Core) SendableCommands(actor *model.User, deviceID int64) ([]*model.Command, error) {
	types, err := c.CommandTypes(actor, deviceID, "", false)
	if err != nil {
		return nil, err
	}
	saved, err := c.Fleet.Commands.List(actor, model.Query{})
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

// SendCommand implements B6. A saved command (cmd.ID > 0) is sent by id to
// cmd.DeviceID. It is written to the live connection (queued false) or, with
// the device offline, queued until it connects (queued true). Permission and
// type problems are 400s, as the spec's Errors table says for B6.
func (c *Core) SendCommand(actor *model.User, cmd *model.Command) (sent *model.Command, queued bool, err error) {
	if err := limits.Check(cmd); err != nil { // a command may be queued in the store
		return nil, false, err
	}
	var protocol string
	err = c.store.View(func(tx model.Tx) error {
		a := access.Guard{Tx: tx, Actor: actor}
		if err := a.CheckEdit(model.KindCommand); err != nil {
			return &model.Error{Class: model.ClassInvalid, Message: "Command not allowed", Description: err.(*model.Error).Description}
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
		protocol = c.deviceProtocol(tx, cmd.DeviceID)
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
	if protocol != "" && !slices.Contains(c.opts.CommandTypes[protocol], cmd.Type) {
		return nil, false, model.Invalid("command type %q is not supported by the %s protocol", cmd.Type, protocol)
	}
	if cmd.Attributes == nil {
		cmd.Attributes = model.Attributes{}
	}
	if conn := c.liveConn(cmd.DeviceID); conn != nil {
		err := conn.Send(cmd)
		if err == nil || model.ClassOf(err) == model.ClassInvalid {
			return cmd, false, err
		}
		c.log.Info("command write failed, queueing", "deviceId", cmd.DeviceID, "err", err)
	}
	q := &model.QueuedCommand{Command: *cmd, Queued: c.now().UTC()}
	q.ID = 0
	if err := c.storeQueued([]*model.QueuedCommand{q}); err != nil {
		return nil, false, err
	}
	return cmd, true, nil
}

// storeQueued adds commands of one device to the queue, counting them in
// the queue index first (see queueIndex).
func (c *Core) storeQueued(qs []*model.QueuedCommand) error {
	if err := c.queue.load(c); err != nil {
		return err
	}
	device := qs[0].DeviceID
	c.queue.add(device, len(qs))
	err := c.store.Update(func(tx model.Tx) error {
		for _, q := range qs {
			q.ID = 0
			if err := tx.QueuedCommands().Create(q); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		c.queue.remove(device, len(qs))
	}
	return err
}

// takeQueued removes and returns a device's queued commands, oldest first.
// It runs for every OsmAnd request and every connection and almost always
// finds nothing: the queue index answers that without a transaction.
func (c *Core) takeQueued(deviceID int64) ([]*model.QueuedCommand, error) {
	if err := c.queue.load(c); err != nil || !c.queue.any(deviceID) {
		return nil, err
	}
	var out []*model.QueuedCommand
	err := c.store.Update(func(tx model.Tx) error {
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
	c.queue.remove(deviceID, len(out))
	return out, nil
}

// TakeQueued hands a connectionless protocol (OsmAnd replies over HTTP) the
// device's queued commands and records them as sent.
func (c *Core) TakeQueued(deviceID int64) ([]*model.Command, error) {
	queued, err := c.takeQueued(deviceID)
	out := make([]*model.Command, 0, len(queued))
	for _, q := range queued {
		out = append(out, &q.Command)
		c.record(deviceID, model.EventQueuedCommandSent, model.Attributes{"type": q.Type})
	}
	return out, err
}

// deliverQueued writes queued commands to a fresh connection; a command the
// connection refuses goes back to the queue.
func (c *Core) deliverQueued(deviceID int64, conn DeviceConn) {
	queued, err := c.takeQueued(deviceID)
	if err != nil {
		c.log.Warn("reading queued commands failed", "deviceId", deviceID, "err", err)
	}
	for i, q := range queued {
		if err := conn.Send(&q.Command); err != nil {
			c.log.Warn("queued command not delivered", "deviceId", deviceID, "type", q.Type, "err", err)
			if model.ClassOf(err) == model.ClassInvalid {
				continue // the protocol can never encode it: drop, do not retry forever
			}
			c.requeue(queued[i:])
			return
		}
		c.record(deviceID, model.EventQueuedCommandSent, model.Attributes{"type": q.Type})
	}
}

func (c *Core) requeue(qs []*model.QueuedCommand) {
	if err := c.storeQueued(qs); err != nil {
		c.log.Error("requeueing commands failed", "err", err)
	}
}

// CommandResult records a device's answer to a command.
func (c *Core) CommandResult(deviceID int64, result string) error {
	return c.record(deviceID, model.EventCommandResult, model.Attributes{"result": result})
}

// record stores and broadcasts one event not tied to a position.
func (c *Core) record(deviceID int64, typ string, attrs model.Attributes) error {
	e := &model.Event{Type: typ, EventTime: c.now().UTC(), DeviceID: deviceID, Attributes: attrs}
	err := c.store.Batch(func(tx model.Tx) error { e.ID = 0; return tx.AddEvent(e) })
	if err != nil && !errors.Is(err, model.ErrNotFound) {
		c.log.Warn("event not stored", "type", typ, "deviceId", deviceID, "err", err)
		return err
	}
	c.Live.Publish(deviceID, live.Update{Events: []*model.Event{e}})
	return nil
}
