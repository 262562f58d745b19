package catalog

import (
	"slices"

	"github.com/fleetd/fleetd/protocols"
)

// setups are the set-up notes of each protocol, for the dashboard: the
// tracker families that speak it and their SMS commands, from the
// manufacturers' documents named in Source.
var setups = map[string]protocols.Setup{
	"gt06": {
		Families: "Concox / Jimi IoT GT06, GT06N, GT02, GT800, JM01; SeeWorld, Wetrack and other GT06 clones",
		Commands: []protocols.SetupCommand{
			{Purpose: "Access point", SMS: "APN,{apn}#"},
			{Purpose: "Server (IP address; use SERVER,1,… for a host name)", SMS: "SERVER,0,{server},{port},0#"},
			{Purpose: "Report interval while moving", SMS: "TIMER,{interval}#"},
		},
		Source: "Concox GT06N user manual (SMS commands APN, SERVER, TIMER); SeeWorld S119 manual (TIMER)",
	},
	"teltonika": {
		Families: "Teltonika FMB, FMC, FMM, FMP, FMT families (FMB920, FMB120, FMC130, …)",
		Commands: []protocols.SetupCommand{
			// Two leading spaces: the SMS login and password, empty by default.
			{Purpose: "Access point and server (TCP)", SMS: "  setparam 2001:{apn};2004:{server};2005:{port};2006:0"},
			{Purpose: "Report interval while moving (home network)", SMS: "  setparam 10050:{interval}"},
		},
		Source: "Teltonika wiki: FMB setparam, FMB device family parameter list (2001 APN, 2004 domain, 2005 port, 2006 protocol, 10050 moving min period)",
	},
}

// Listeners are the enabled protocols with their ports and set-up notes,
// in port order; the shared port is not one of them.
func Listeners(ports map[string]int) []protocols.Listener {
	var out []protocols.Listener
	for _, e := range All() {
		if port, on := ports[e.Name]; on {
			out = append(out, protocols.Listener{Protocol: e.Name, Port: port, UDP: e.UDP, Setup: setups[e.Name]})
		}
	}
	slices.SortFunc(out, func(a, b protocols.Listener) int { return a.Port - b.Port })
	return out
}
