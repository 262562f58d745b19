package admin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/traccarimport"
	"github.com/fleetd/fleetd/storage"
)

// TraccarImport is what fleetd import traccar was given.
type TraccarImport struct {
	URL, Email, Password, TOTP string
	// From and To bound the history: a date (2026-01-01, midnight in the
	// local time zone; To's whole day is included) or a time in RFC 3339
	// (2026-01-01T06:00:00+01:00). No From: no history; no To: now.
	From, To        string
	Events, Recheck bool
	MaxPositions    int
}

// ImportTraccar imports a running Traccar server's data into the store,
// which fleetd serve must not hold: the import writes for minutes to
// hours (the history), and stopping serve for it keeps the devices that
// report meanwhile on Traccar, where the next import finds their
// positions. It shows its progress on Err and prints what it did on Out,
// also when it stops early.
func (a *Commands) ImportTraccar(ctx context.Context, in TraccarImport, now time.Time) error {
	o := traccarimport.Options{URL: in.URL, Email: in.Email, TOTP: in.TOTP, Events: in.Events, Recheck: in.Recheck,
		MaxPositions: in.MaxPositions}
	var err error
	if o.From, err = parseWhen(in.From, false, now); err != nil {
		return fmt.Errorf("--from: %w", err)
	}
	if o.To, err = parseWhen(in.To, true, now); err != nil {
		return fmt.Errorf("--to: %w", err)
	}
	if in.To != "" && in.From == "" {
		return errors.New("--to needs --from: the history imported is the span from --from to --to")
	}
	if in.Events && in.From == "" {
		return errors.New("--events needs --from: events are imported with the positions of that span")
	}
	var sum *traccarimport.Summary
	var runErr error
	bar := newProgressBar(a.errOut())
	o.Progress = bar.update
	err = a.withCore(createStore, func(core *app.Core) error {
		if o.Password, err = a.password(in.Password); err != nil {
			return err
		}
		sum, runErr = traccarimport.Run(ctx, traccarimport.Services{Store: core.Store(), Accounts: core.Accounts, Fleet: core.Fleet}, o)
		return nil
	})
	bar.end()
	if errors.Is(err, storage.ErrLocked) {
		return fmt.Errorf("fleetd serve is running and holds the store %s: stop it (sudo systemctl stop fleetd), import, then start it again "+
			"(an import can be run again later: it goes on where the last one stopped)", a.Config.Data.StorePath())
	}
	if err != nil {
		return err
	}
	started := sum != nil && len(sum.Kinds) > 0 // past the login and the checks
	if started {
		printSummary(a.Out, sum, o.Events)
	}
	switch {
	case errors.Is(runErr, context.Canceled):
		return errors.New("import interrupted; what it stored is kept: run the same command again to go on")
	case runErr != nil && started:
		return fmt.Errorf("%w\nwhat was imported is kept: run the same command again to go on", runErr)
	}
	return runErr
}

// errOut is where progress goes.
func (a *Commands) errOut() io.Writer {
	if a.Err == nil {
		return io.Discard
	}
	return a.Err
}

// parseWhen reads a --from or --to value: a date, midnight in the local
// time zone (for the end of a span, the midnight after it, so the day is
// included), or an RFC 3339 time. Empty is the zero time.
func parseWhen(s string, end bool, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation("2006-01-02T15:04", s, now.Location()); err == nil {
		return t, nil
	}
	t, err := time.ParseInLocation(time.DateOnly, s, now.Location())
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a date (2026-01-31) or a time (2026-01-31T06:00 or 2026-01-31T06:00:00+01:00)", s)
	}
	if end {
		t = t.AddDate(0, 0, 1)
	}
	return t, nil
}

// printSummary tells what the import did, kind by kind.
func printSummary(w io.Writer, s *traccarimport.Summary, events bool) {
	version := ""
	if s.Version != "" {
		version = " " + s.Version
	}
	fmt.Fprintf(w, "Imported from Traccar%s at %s (%d requests):\n", version, s.Server, s.Requests)
	fmt.Fprintf(w, "%-20s %8s %14s %8s %8s\n", "", "created", "already there", "updated", "skipped")
	for _, k := range s.Kinds {
		fmt.Fprintf(w, "%-20s %8d %14d %8d %8d\n", k.Name, k.Created, k.Existing, k.Updated, len(k.Skipped))
	}
	if h := s.History; h == nil {
		fmt.Fprintln(w, "history: not imported (give --from, and --events for the events)")
	} else {
		fmt.Fprintf(w, "history from %s to %s, read for %d devices:\n", h.From.Format(time.RFC3339), h.To.Format(time.RFC3339), h.Devices)
		fmt.Fprintf(w, "  positions: %d stored, %d already there\n", h.Positions, h.PositionsThere)
		if events {
			fmt.Fprintf(w, "  events: %d stored, %d already there", h.Events, h.EventsThere)
			if h.EventsWithoutPosition > 0 {
				fmt.Fprintf(w, ", %d without their position (not in the span imported)", h.EventsWithoutPosition)
			}
			fmt.Fprintln(w)
		} else {
			fmt.Fprintln(w, "  events: not imported (give --events)")
		}
		reasons := make([]string, 0, len(h.Skipped))
		for why := range h.Skipped {
			reasons = append(reasons, why)
		}
		slices.Sort(reasons)
		for _, why := range reasons {
			fmt.Fprintf(w, "  skipped %d, %s\n", h.Skipped[why], why)
		}
		for _, n := range h.Notes {
			fmt.Fprintf(w, "  %s\n", n)
		}
	}
	var skipped, notes []string
	for _, k := range s.Kinds {
		for _, sk := range k.Skipped {
			skipped = append(skipped, fmt.Sprintf("  %s: %s", sk.What, sk.Reason))
		}
		for _, n := range k.Notes {
			notes = append(notes, "  "+n)
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintf(w, "skipped (fleetd refused them, or what they link to):\n%s\n", strings.Join(skipped, "\n"))
	}
	if len(notes) > 0 {
		fmt.Fprintf(w, "imported with changes:\n%s\n", strings.Join(notes, "\n"))
	}
	if len(s.NeedReset) > 0 {
		fmt.Fprintf(w, "users given a random password (Traccar does not give out passwords): set one with\n"+
			"fleetd user passwd --email E, or they use the password reset once mail is set up:\n  %s\n", strings.Join(s.NeedReset, "\n  "))
	}
}

// progressBar draws one line per phase on a terminal, redrawn in place;
// elsewhere (a log) it writes each phase's last line, and the history's
// every tenth.
type progressBar struct {
	w      io.Writer
	tty    bool
	phase  string
	line   string
	drawn  time.Time
	tenths int
}

func newProgressBar(w io.Writer) *progressBar {
	f, ok := w.(*os.File)
	tty := false
	if ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			tty = true
		}
	}
	return &progressBar{w: w, tty: tty}
}

const barWidth = 30

func (b *progressBar) update(p traccarimport.Progress) {
	if p.Phase != b.phase {
		b.end()
		b.phase, b.tenths = p.Phase, -1
	}
	filled := 0
	if p.Total > 0 {
		filled = barWidth * p.Done / p.Total
	}
	b.line = fmt.Sprintf("%-20s [%s%s] %d/%d", p.Phase, strings.Repeat("#", filled), strings.Repeat(".", barWidth-filled), p.Done, p.Total)
	switch {
	case b.tty:
		if p.Done == p.Total || time.Since(b.drawn) > 100*time.Millisecond {
			fmt.Fprintf(b.w, "\r%s", b.line)
			b.drawn = time.Now()
		}
	case p.Phase == "history" && p.Total > 0 && p.Done < p.Total:
		if t := 10 * p.Done / p.Total; t > b.tenths {
			b.tenths = t
			fmt.Fprintln(b.w, b.line)
		}
	}
}

// end finishes the current phase's line.
func (b *progressBar) end() {
	if b.line == "" {
		return
	}
	if b.tty {
		fmt.Fprintf(b.w, "\r%s\n", b.line)
	} else {
		fmt.Fprintln(b.w, b.line)
	}
	b.line = ""
}
