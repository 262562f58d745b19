package protocols

import (
	"strconv"
	"strings"
)

// Setup tells an owner how to point trackers of one protocol at fleetd:
// the tracker families that speak it and their usual SMS set-up commands,
// as the manufacturers' documents give them.
type Setup struct {
	// Families names the trackers that speak the protocol.
	Families string
	// Commands are the SMS texts, in the order they are sent.
	Commands []SetupCommand
	// Source names the manufacturer's document the commands follow.
	Source string
}

// SetupCommand is one SMS. Its text holds placeholders the dashboard
// fills in: {server} (the host trackers reach fleetd at), {port}, {apn}
// (the SIM's access point), {interval} (seconds between reports) and
// {password} (the tracker's SMS password, its factory default written
// out where the manual gives one).
type SetupCommand struct {
	Purpose string
	SMS     string
}

// Fill returns the command's text with the placeholders replaced.
func (c SetupCommand) Fill(server string, port int, apn, interval string) string {
	return strings.NewReplacer("{server}", server, "{port}", strconv.Itoa(port), "{apn}", apn, "{interval}", interval).Replace(c.SMS)
}

// Listener is one enabled protocol as the dashboard shows it: its port,
// whether it also takes UDP, and its set-up.
type Listener struct {
	Protocol string
	Port     int
	UDP      bool
	Setup    Setup
}
