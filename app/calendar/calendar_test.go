package calendar

import (
	"strings"
	"testing"
	"time"
)

// webAppCalendar is the document Traccar's web app writes for a "simple"
// calendar (settings/CalendarPage.jsx): LF lines, local times with the
// browser's TZID, one event an hour long and a rule.
func webAppCalendar(rule string) string {
	return strings.Join([]string{
		"BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Traccar//NONSGML Traccar//EN",
		"BEGIN:VEVENT", "UID:00000000-0000-0000-0000-000000000000",
		"DTSTART;TZID=Europe/Berlin:20261102T080000", "DTEND;TZID=Europe/Berlin:20261102T090000",
		rule, "SUMMARY:Event", "END:VEVENT", "END:VCALENDAR",
	}, "\n")
}

// googleExport is the shape of a Google Calendar export: CRLF lines, a
// VTIMEZONE, a folded line, a weekly rule with an exception.
const googleExport = "BEGIN:VCALENDAR\r\nPRODID:-//Google Inc//Google Calendar 70.9054//EN\r\nVERSION:2.0\r\n" +
	"CALSCALE:GREGORIAN\r\nMETHOD:PUBLISH\r\nX-WR-CALNAME:Shifts\r\nX-WR-TIMEZONE:America/New_York\r\n" +
	"BEGIN:VTIMEZONE\r\nTZID:America/New_York\r\nX-LIC-LOCATION:America/New_York\r\n" +
	"BEGIN:DAYLIGHT\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0400\r\nTZNAME:EDT\r\nDTSTART:19700308T020000\r\n" +
	"RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU\r\nEND:DAYLIGHT\r\n" +
	"BEGIN:STANDARD\r\nTZOFFSETFROM:-0400\r\nTZOFFSETTO:-0500\r\nTZNAME:EST\r\nDTSTART:19701101T020000\r\n" +
	"RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n" +
	"BEGIN:VEVENT\r\nDTSTART;TZID=America/New_York:20261006T220000\r\nDTEND;TZID=America/New_York:20261007T060000\r\n" +
	"RRULE:FREQ=WEEKLY;BYDAY=TU,TH\r\nEXDATE;TZID=America/New_York:20261105T220000,20261110T220000\r\n" +
	"DTSTAMP:20261101T120000Z\r\nUID:night-shift@google.com\r\n" +
	"DESCRIPTION:Night shift for the delivery vans\\, depot \r\n north\r\nSUMMARY:Night shift\r\nEND:VEVENT\r\n" +
	"END:VCALENDAR\r\n"

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestContains(t *testing.T) {
	for _, c := range []struct {
		name, data string
		at         map[string]bool // RFC 3339 moment -> active
	}{
		{"web app, daily", webAppCalendar("RRULE:FREQ=DAILY"), map[string]bool{
			"2026-11-02T06:59:59Z": false, // 07:59:59 in Berlin (CET, +01:00)
			"2026-11-02T07:00:00Z": true,  // the start is inside
			"2026-11-02T07:59:59Z": true,
			"2026-11-02T08:00:00Z": false, // the end is not
			"2026-11-24T07:30:00Z": true,  // three weeks later
			"2027-07-01T06:30:00Z": true,  // summer time: 08:30 CEST
			"2027-07-01T07:30:00Z": false, // 09:30 CEST
			"2026-11-01T07:30:00Z": false, // before the first occurrence
		}},
		{"web app, weekly on Monday and Wednesday", webAppCalendar("RRULE:FREQ=WEEKLY;BYDAY=MO,WE"), map[string]bool{
			"2026-11-02T07:30:00Z": true,  // Monday
			"2026-11-03T07:30:00Z": false, // Tuesday
			"2026-11-04T07:30:00Z": true,  // Wednesday
			"2026-11-09T07:30:00Z": true,
		}},
		{"web app, monthly on the 2nd", webAppCalendar("RRULE:FREQ=MONTHLY;BYMONTHDAY=2"), map[string]bool{
			"2026-12-02T07:30:00Z": true,
			"2026-12-03T07:30:00Z": false,
		}},
		{"web app, once", webAppCalendar("RRULE:FREQ=DAILY;COUNT=1"), map[string]bool{
			"2026-11-02T07:30:00Z": true,
			"2026-11-03T07:30:00Z": false,
		}},
		{"Google export: zone, exceptions, overnight", googleExport, map[string]bool{
			"2026-10-07T03:00:00Z": true,  // Tue 23:00 EDT
			"2026-10-07T10:00:00Z": false, // Wed 06:00 EDT: the end
			"2026-10-08T03:00:00Z": false, // Wed night
			"2026-10-09T09:59:00Z": true,  // Fri 05:59 EDT, the Thursday shift
			"2026-11-06T04:00:00Z": false, // Thu 5 Nov 23:00 EST: excluded
			"2026-11-11T04:00:00Z": false, // Tue 10 Nov: excluded
			"2026-11-13T04:00:00Z": true,  // Thu 12 Nov 23:00 EST
		}},
		{"all-day date, no end: one day in UTC", "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;VALUE=DATE:20261225\nEND:VEVENT\nEND:VCALENDAR", map[string]bool{
			"2026-12-24T23:59:59Z": false,
			"2026-12-25T00:00:00Z": true,
			"2026-12-25T23:59:59Z": true,
			"2026-12-26T00:00:00Z": false,
		}},
		{"UTC start with a duration, extra date", "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261201T120000Z\nDURATION:PT30M\n" +
			"RRULE:FREQ=DAILY;COUNT=2\nRDATE:20261210T120000Z\nEND:VEVENT\nEND:VCALENDAR", map[string]bool{
			"2026-12-01T12:29:59Z": true,
			"2026-12-02T12:10:00Z": true,
			"2026-12-03T12:10:00Z": false, // COUNT=2
			"2026-12-10T12:10:00Z": true,  // RDATE
		}},
		{"floating time is UTC", "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261201T120000\nDTEND:20261201T130000\nEND:VEVENT\nEND:VCALENDAR", map[string]bool{
			"2026-12-01T12:00:00Z": true,
			"2026-12-01T13:00:00Z": false,
		}},
		{"no events", "BEGIN:VCALENDAR\nVERSION:2.0\nEND:VCALENDAR", map[string]bool{"2026-12-01T12:00:00Z": false}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cal, err := Parse([]byte(c.data))
			if err != nil {
				t.Fatal(err)
			}
			for moment, want := range c.at {
				if got := cal.Contains(at(moment)); got != want {
					t.Errorf("Contains(%s) = %v, want %v", moment, got, want)
				}
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"not iCalendar", "hello", "not iCalendar"},
		{"empty", "", "not iCalendar"},
		{"not a calendar", "BEGIN:VEVENT\nEND:VEVENT", "expected \"VCALENDAR\""},
		{"unknown zone", strings.Replace(webAppCalendar("RRULE:FREQ=DAILY"), "Europe/Berlin", "Mars/Olympus", 2), "event 1"},
		{"no start", "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTEND:20261201T130000Z\nEND:VEVENT\nEND:VCALENDAR", "no DTSTART"},
		{"ends before it starts", "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261201T130000Z\nDTEND:20261201T120000Z\nEND:VEVENT\nEND:VCALENDAR", "ends before"},
		{"bad rule", webAppCalendar("RRULE:FREQ=SOMETIMES"), "event 1"},
		{"every minute", webAppCalendar("RRULE:FREQ=MINUTELY"), "more often than hourly"},
		{"year 0", "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:00001001T000000\nRRULE:FREQ=WEEKLY\nEND:VEVENT\nEND:VCALENDAR", "starts in 0"},
		{"too big", "BEGIN:VCALENDAR\n" + strings.Repeat("X-PAD:"+strings.Repeat("a", 60)+"\n", 5000) + "END:VCALENDAR", "over 256 KiB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.data))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Parse = %v, want an error with %q", err, c.want)
			}
		})
	}
}

// FuzzParse: no document may panic the parser or a check.
func FuzzParse(f *testing.F) {
	f.Add([]byte(webAppCalendar("RRULE:FREQ=WEEKLY;BYDAY=MO")))
	f.Add([]byte(googleExport))
	f.Fuzz(func(t *testing.T, data []byte) {
		if cal, err := Parse(data); err == nil {
			cal.Contains(at("2026-11-02T07:30:00Z"))
		}
	})
}

func TestEnded(t *testing.T) {
	cal, err := Parse([]byte(webAppCalendar("RRULE:FREQ=WEEKLY;BYDAY=MO,WE")))
	if err != nil {
		t.Fatal(err)
	}
	// Berlin 08:00-09:00 on Mondays and Wednesdays: 07:00-08:00 UTC in
	// November. The periods that end in a quarter hour, and in a week.
	if got := cal.Ended(at("2026-11-02T07:50:00Z"), at("2026-11-02T08:05:00Z")); len(got) != 1 ||
		!got[0].Start.Equal(at("2026-11-02T07:00:00Z")) || !got[0].End.Equal(at("2026-11-02T08:00:00Z")) {
		t.Errorf("Ended around Monday's end = %v", got)
	}
	if got := cal.Ended(at("2026-11-02T08:00:00Z"), at("2026-11-02T08:15:00Z")); len(got) != 0 {
		t.Errorf("a period that ended at the start of the span counts again: %v", got)
	}
	if got := cal.Ended(at("2026-11-01T00:00:00Z"), at("2026-11-08T00:00:00Z")); len(got) != 2 ||
		!got[1].End.Equal(at("2026-11-04T08:00:00Z")) {
		t.Errorf("Ended in the first week = %v, want Monday and Wednesday", got)
	}
	once, _ := Parse([]byte("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261201T120000Z\nDTEND:20261201T130000Z\nEND:VEVENT\nEND:VCALENDAR"))
	if got := once.Ended(at("2026-12-01T12:59:00Z"), at("2026-12-01T13:00:00Z")); len(got) != 1 {
		t.Errorf("a single event's end: %v", got)
	}
}
