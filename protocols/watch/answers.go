package watch

import "strings"

// commandAnswers are the commands of the makers' documents that the watch
// answers with their own keyword (some with values: "VERNO,<version>"),
// upper-cased: the documents spell some in lower case ("rcapture").
var commandAnswers = keywords(`UPLOAD PW CALL CENTER SLAVE MONITOR SOS SOS1 SOS2 SOS3 IP FACTORY LZ LANG
	ZONE SOSSMS LOWBAT VERNO RESET CR POWEROFF REMOVE REMOVESMS PEDO WALKTIME SLEEPTIME SILENCETIME
	SILENCETIME2 FIND FLOWER REMIND MESSAGE PHB PHB2 PHB3 PHBX PHBX2 DPHBX PROFILE WHITELIST1 WHITELIST2
	SCHEDULE HRTSTART HEALTHAUTOSET FALLDOWN LSSET BODYTEMP BODYTEMP2 BTWARNSET BTTIMESET APPLOCK
	WIFISEARCH WIFISET WIFIDEL WIFICUR TAKEPILLS DEVREFUSEPHONESWITCH ACALL RCAPTURE WORK WORKTIME ANY`)

func keywords(list string) map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Fields(list) {
		m[k] = true
	}
	return m
}

// isCommandAnswer reports whether a frame of type typ answers a command.
func isCommandAnswer(typ string) bool { return commandAnswers[strings.ToUpper(typ)] }
