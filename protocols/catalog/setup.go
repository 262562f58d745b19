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
	"gl200": {
		Families: "Queclink GL, GV and GMT series (GL300, GL320, GV55, GV300, GV500, GMT100, …)",
		Commands: []protocols.SetupCommand{
			// gl300 is the GL300's factory password (the GMT100's is gmt100).
			{Purpose: "Access point (GL300 factory password gl300)", SMS: "AT+GTBSI=gl300,{apn},,,,,,,0001$"},
			{Purpose: "Server, TCP long connection with buffering, 10-minute heartbeat, acknowledged by SMS", SMS: "AT+GTSRI=gl300,3,,1,{server},{port},,,,10,0,1,0,,,0002$"},
		},
		Source: "Queclink GL300 @Track Air Interface Protocol TRACGL300AN001 (3.2.2 AT+GTBSI, 3.2.3 AT+GTSRI); the report interval (AT+GTFRI) is left to the model's own protocol document",
	},
	"gps103": {
		Families: "Coban TK102/TK103 (TK103A, TK103B, GPS102, GPS103, GPS104, GPS-303) and the many Xexun-style clones reporting \"imei:…\" text",
	},
	"h02": {
		Families: "SinoTrack ST-901, ST-906, ST-907, ST-915 and other trackers reporting \"*HQ,…#\" (H02) frames",
	},
	"jt600": {
		Families: "Jointech JT600, JT700, JT701, JT707 container and electronic-lock trackers",
	},
	"jt808": {
		Families: "Trackers and dashcams speaking the Chinese JT/T 808 standard: many Chinese makers offer it as a mode (e.g. Jimi IoT/Concox 4G models); the server command differs from maker to maker",
	},
	"meiligao": {
		Families: "Meiligao (now Meitrack) VT300, VT310, VT400, GT30i, GT60",
	},
	"meitrack": {
		Families: "Meitrack MVT100, MVT340, MVT380, MVT600, MT90, T1, T3, T333, T366, T622, T633",
		Commands: []protocols.SetupCommand{
			{Purpose: "Server (TCP) and access point; factory password 0000", SMS: "0000,A21,1,{server},{port},{apn},,"},
			// A12 counts tens of seconds, so {interval} (seconds) cannot be used as is.
			{Purpose: "Report interval while moving, in tens of seconds (6 = one minute)", SMS: "0000,A12,6"},
		},
		Source: "Meitrack T622 GPRS Protocol (3.3 A12, 3.9 A21); Meitrack SMS Protocol for MVT/T1/T333 (same commands by SMS, password first)",
	},
	"osmand": {
		Families: "Phone apps: Traccar Client (Android, iOS) and others sending the OsmAnd HTTP format; no SMS, the settings are made in the app",
		Commands: []protocols.SetupCommand{
			{Purpose: "Traccar Client setting \"Server URL\" (set \"Device identifier\" to the device's unique ID here)", SMS: "http://{server}:{port}"},
			{Purpose: "Traccar Client: seconds between reports (its interval setting)", SMS: "{interval}"},
		},
		Source: "Traccar Client README (traccar/traccar-client: server address and identifier in the app settings)",
	},
	"ruptela": {
		Families: "Ruptela FM-Eco, FM-Pro, FM-Tco and Trace families",
		Commands: []protocols.SetupCommand{
			// Leading space: no SMS password set; otherwise the password comes first.
			{Purpose: "Access point and server, TCP (server as an IP address)", SMS: " setconnection {apn},,,TCP,{server},{port}"},
		},
		Source: "Ruptela FM-Eco SMS commands list, 2018-08-01 (1.1.9 setconnection); PRO3/ECO3/TCO3 SMS commands list (leading space when no password)",
	},
	"suntech": {
		Families: "Suntech ST300, ST340, ST310U, ST350, ST4300, ST600, ST910/ST940 (universal and ST300 text protocols)",
	},
	"tk103": {
		Families: "TK103-labelled vehicle trackers from Shenzhen OEMs reporting bracketed \"(…BP00…)\", \"(…BR00…)\" frames; not the Coban \"imei:\" units (gps103)",
	},
	"castel": {
		Families: "Sinocastel IDD-213, IDD-218 and CT-04 OBD trackers",
	},
	"trv": {
		Families: "Watches and personal trackers reporting \"TRVAP00…\" or \"IWAP00…\" frames (IW/TRV protocol)",
	},
	"t55": {
		Families: "Devices and apps sending plain NMEA sentences after an identifier line ($PGID, $PCPTI or IMEI): Traccar's t55 protocol; which tracker models use it varies",
	},
	"watch": {
		Families: "2G/3G/4G children's and senior watches made for the SeTracker / SeTracker2 app (\"[SG*…]\", \"[3G*…]\" frames)",
	},
	"wialon": {
		Families: "Any device or app with a Wialon IPS 1.1/2.0 option (offered by many makers); the server and port are set in the device's own configurator or SMS set",
	},
	"eelink": {
		Families: "Eelink TK116, TK119, TK121, GPT06, GPT18 and other Eelink trackers",
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
