package prefs_test

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/prefs"
)

func TestForLayersUserOverServer(t *testing.T) {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	server := &model.Server{Attributes: model.Attributes{"timezone": "Europe/Berlin", "speedUnit": "mph", "currency": "EUR"}}
	tests := []struct {
		name     string
		user     *model.User
		server   *model.Server
		zone     *time.Location
		speed    string
		distance string
		currency string
	}{
		{"nothing set", nil, nil, time.UTC, prefs.Kmh, prefs.Km, ""},
		{"server defaults", &model.User{}, server, berlin, prefs.Mph, prefs.Km, "EUR"},
		{"user overrides", &model.User{Attributes: model.Attributes{"speedUnit": "kn", "distanceUnit": "nmi", "timezone": "UTC"}}, server, time.UTC, prefs.Knots, prefs.Nmi, "EUR"},
		{"invalid user values fall through", &model.User{Attributes: model.Attributes{"speedUnit": "furlongs", "timezone": "../etc/passwd", "currency": "euro"}}, server, berlin, prefs.Mph, prefs.Km, "EUR"},
		{"non-string values ignored", &model.User{Attributes: model.Attributes{"speedUnit": 3.0}}, nil, time.UTC, prefs.Kmh, prefs.Km, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := prefs.For(tt.user, tt.server)
			if d.Zone.String() != tt.zone.String() || d.Speed != tt.speed || d.Distance != tt.distance || d.Currency != tt.currency {
				t.Errorf("got zone %s speed %s distance %s currency %q, want %s %s %s %q",
					d.Zone, d.Speed, d.Distance, d.Currency, tt.zone, tt.speed, tt.distance, tt.currency)
			}
		})
	}
}

func TestTexts(t *testing.T) {
	at := time.Date(2026, 7, 1, 12, 30, 0, 0, time.UTC)
	berlin, _ := time.LoadLocation("Europe/Berlin")
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"kmh", prefs.Display{Speed: prefs.Kmh}.SpeedText(10), "19 km/h"},
		{"mph", prefs.Display{Speed: prefs.Mph}.SpeedText(10), "12 mph"},
		{"knots", prefs.Display{Speed: prefs.Knots}.SpeedText(10), "10 kn"},
		{"km", prefs.Display{Distance: prefs.Km}.DistanceText(12345), "12.3 km"},
		{"mi", prefs.Display{Distance: prefs.Mi}.DistanceText(16093.44), "10.0 mi"},
		{"nmi", prefs.Display{Distance: prefs.Nmi}.DistanceText(1852), "1.0 nmi"},
		{"utc time", prefs.Default().TimeText(at), "2026-07-01 12:30 UTC"},
		{"zoned time", prefs.Display{Zone: berlin}.TimeText(at), "2026-07-01 14:30 CEST"},
		{"twelve hour", prefs.Display{Zone: berlin, TwelveHour: true}.TimeText(at), "2026-07-01 2:30 PM CEST"},
		{"zero time", prefs.Default().TimeText(time.Time{}), "–"},
		{"date across midnight", prefs.Display{Zone: berlin}.DateOf(time.Date(2026, 7, 1, 22, 30, 0, 0, time.UTC)), "2026-07-02"},
		{"odometer km", prefs.Default().RoundDistance(88000), "88000 km"},
		{"odometer mi", prefs.Display{Distance: prefs.Mi}.RoundDistance(88000), "54681 mi"},
		{"money bare", prefs.Default().Money(1234567.5), "1,234,567.50"},
		{"money with currency", prefs.Display{Currency: "EUR"}.Money(-1234.5), "EUR -1,234.50"},
		{"money small", prefs.Default().Money(5), "5.00"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestKnotsRoundTrip(t *testing.T) {
	for _, unit := range []string{prefs.Kmh, prefs.Mph, prefs.Knots} {
		d := prefs.Display{Speed: unit}
		if got := d.SpeedValue(d.KnotsFrom(90)); got < 89.999 || got > 90.001 {
			t.Errorf("%s: 90 -> knots -> %v", unit, got)
		}
	}
}

func TestKmRoundTrip(t *testing.T) {
	for _, unit := range []string{prefs.Km, prefs.Mi, prefs.Nmi} {
		d := prefs.Display{Distance: unit}
		shown := d.DistanceValue(88000 * 1000)
		if got := d.KmFrom(shown); got != 88000 {
			t.Errorf("%s: 88000 km shown as %v and read back as %v km", unit, shown, got)
		}
	}
}

func TestDayStart(t *testing.T) {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	d := prefs.Display{Zone: berlin}
	got := d.DayStart(time.Date(2026, 7, 1, 23, 30, 0, 0, time.UTC))
	if want := time.Date(2026, 7, 2, 0, 0, 0, 0, berlin); !got.Equal(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
