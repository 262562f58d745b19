package traccarweb_test

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// report writes the walk's results as Markdown: a summary table, then
// each failing step with its exact failing requests, alerts and console
// errors.
func (w *walker) report(took time.Duration) string {
	var sb strings.Builder
	count := map[string]int{}
	for _, r := range w.results {
		count[r.Status]++
	}
	fmt.Fprintf(&sb, "# traccar-web on fleetd\n\n")
	fmt.Fprintf(&sb, "Run %s, %s. %d steps: **%d OK**, **%d work with an error** (alert, failed request or console error), **%d broken**",
		time.Now().Format("2006-01-02 15:04"), took.Round(time.Second), len(w.results), count["OK"], count["ERROR"], count["BROKEN"])
	fmt.Fprintf(&sb, "; %d setup failures.\n\n", len(w.setup))
	if len(w.setup) > 0 {
		sb.WriteString("## Setup failures (direct API and OsmAnd calls before the browser walk)\n\n")
		for _, s := range w.setup {
			fmt.Fprintf(&sb, "- %s\n", md(s))
		}
		sb.WriteString("\n")
	}

	sb.WriteString("## Steps\n\n| # | Area | Step | Result | /api calls | Failures |\n|---|---|---|---|---|---|\n")
	for _, r := range w.results {
		var f []string
		for _, a := range r.Alerts {
			f = append(f, "alert: "+short(a, 120))
		}
		for _, c := range r.Failed {
			f = append(f, fmt.Sprintf("%s %s %d", c.Method, short(c.Path, 80), c.Status))
		}
		for _, p := range r.Problems {
			f = append(f, short(p, 160))
		}
		if len(r.Console) > 0 {
			f = append(f, fmt.Sprintf("%d console errors", len(r.Console)))
		}
		fmt.Fprintf(&sb, "| %d | %s | %s | %s | %d | %s |\n", r.N, r.Area, md(r.Name), r.Status, r.Calls, md(strings.Join(f, "; ")))
	}

	sb.WriteString("\n## Failing steps in detail\n\n")
	anyFailed := false
	for _, r := range w.results {
		if r.Status == "OK" {
			continue
		}
		anyFailed = true
		fmt.Fprintf(&sb, "### %d. %s — %s (%s)\n\nPage at the end: `%s`\n\n", r.N, r.Area, r.Name, r.Status, r.URL)
		for _, p := range r.Problems {
			fmt.Fprintf(&sb, "- problem: %s\n", md(p))
		}
		for _, a := range r.Alerts {
			fmt.Fprintf(&sb, "- alert: «%s»\n", md(a))
		}
		for _, c := range r.Failed {
			fmt.Fprintf(&sb, "- request: `%s %s` → **%d**", c.Method, c.Path, c.Status)
			if c.ReqBody != "" {
				fmt.Fprintf(&sb, "; sent `%s`", strings.ReplaceAll(c.ReqBody, "`", "'"))
			}
			if c.RespBody != "" {
				fmt.Fprintf(&sb, "; answer `%s`", strings.ReplaceAll(c.RespBody, "`", "'"))
			}
			sb.WriteString("\n")
		}
		for _, c := range r.Console {
			fmt.Fprintf(&sb, "- console: %s\n", md(short(c, 400)))
		}
		if r.Status == "BROKEN" && len(r.All) > 0 {
			fmt.Fprintf(&sb, "- every /api call of the step: %s\n", md(strings.Join(r.All, ", ")))
		}
		if len(r.Own) > 0 {
			fmt.Fprintf(&sb, "- (not counted) traccar-web's own: %s\n", md(strings.Join(r.Own, "; ")))
		}
		if len(r.External) > 0 {
			fmt.Fprintf(&sb, "- (not counted) outside hosts that failed meanwhile: %s\n", md(short(strings.Join(r.External, "; "), 500)))
		}
		sb.WriteString("\n")
	}
	if !anyFailed {
		sb.WriteString("None.\n")
	}

	// Every distinct failing request, the list to fix.
	seen := map[string][]int{}
	var keys []string
	for _, r := range w.results {
		for _, c := range r.Failed {
			k := fmt.Sprintf("%s %s → %d", c.Method, normPath(c.Path), c.Status)
			if _, ok := seen[k]; !ok {
				keys = append(keys, k)
			}
			seen[k] = append(seen[k], r.N)
		}
	}
	sort.Strings(keys)
	sb.WriteString("\n## Distinct failing requests (ids replaced by :id)\n\n")
	for _, k := range keys {
		fmt.Fprintf(&sb, "- `%s` (steps %s)\n", k, ints(seen[k]))
	}
	if len(keys) == 0 {
		sb.WriteString("None.\n")
	}
	if len(w.notes) > 0 {
		sb.WriteString("\n## Notes\n\n")
		for _, n := range w.notes {
			fmt.Fprintf(&sb, "- %s\n", md(n))
		}
	}
	sb.WriteString("\n## Gestures made again (their precondition had failed)\n\n")
	retried := false
	for _, r := range w.results {
		for _, x := range r.Retries {
			retried = true
			fmt.Fprintf(&sb, "- step %d: %s\n", r.N, md(x))
		}
	}
	if !retried {
		sb.WriteString("None.\n")
	}
	var own []string
	for _, r := range w.results {
		for _, o := range r.Own {
			own = append(own, fmt.Sprintf("step %d: %s", r.N, o))
		}
	}
	if len(own) > 0 {
		sb.WriteString("\n## Not counted: traccar-web's own console lines\n\n")
		for _, o := range own {
			fmt.Fprintf(&sb, "- %s\n", md(o))
		}
		sb.WriteString("\nSee ownConsole in walk_test.go for where traccar-web does this (src/SocketController.jsx lines 144, 147-162).\n")
	}
	w.b.mu.Lock()
	ext := len(w.b.external)
	w.b.mu.Unlock()
	fmt.Fprintf(&sb, "\n%d failed loads and console lines about outside hosts (map tiles, fonts: the machine has no way out) were not counted.\n", ext)
	return sb.String()
}

func md(s string) string {
	return strings.NewReplacer("|", "\\|", "\n", " ").Replace(s)
}

func short(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func ints(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}

// normPath replaces numbers in the path (not the query's keys) with :id.
func normPath(p string) string {
	path, query, _ := strings.Cut(p, "?")
	parts := strings.Split(path, "/")
	for i, s := range parts {
		if s != "" && strings.Trim(s, "0123456789") == "" {
			parts[i] = ":id"
		}
	}
	out := strings.Join(parts, "/")
	if query != "" {
		var q []string
		for _, kv := range strings.Split(query, "&") {
			k, _, _ := strings.Cut(kv, "=")
			q = append(q, k+"=…")
		}
		out += "?" + strings.Join(q, "&")
	}
	return out
}
