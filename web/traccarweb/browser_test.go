package traccarweb_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// helperJS is put into every page before the app's own scripts: it
// records every red MUI Alert (traccar-web's ErrorHandler snackbar, and
// ErrorBoundary's crash alert) and gives the walk a few ways to find
// fields and buttons as a user would, by their visible label.
const helperJS = `(() => {
  if (window.__tw) return;
  // The app's requests still under way: a fetch counts until it answered,
  // and reading its body (json, text) until read, so that none pending (in
  // a later task than the last answer) means the app has what it asked for.
  let pending = 0;
  const track = (p) => {
    pending++;
    const end = () => { pending--; };
    p.then(end, end);
    return p;
  };
  const fetch0 = window.fetch;
  window.fetch = function (...a) { return track(fetch0.apply(this, a)); };
  for (const m of ['json', 'text', 'blob', 'arrayBuffer']) {
    const read = Response.prototype[m];
    Response.prototype[m] = function (...a) { return track(read.apply(this, a)); };
  }
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const bare = (s) => norm(s).replace(/\s*\*$/, '');
  const visible = (el) => {
    if (!el || !el.isConnected) return false;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none';
  };
  const alerts = [];
  const scan = () => {
    document.querySelectorAll('.MuiAlert-root').forEach((el) => {
      if (!/Error/.test(el.className)) return;
      const msg = el.querySelector('.MuiAlert-message') || el;
      const text = norm(msg.textContent);
      if (!text || el.__twText === text) return;
      el.__twText = text;
      alerts.push({ text, crash: !!el.querySelector('code'), at: location.pathname + location.search });
    });
  };
  new MutationObserver(scan).observe(document, { subtree: true, childList: true, characterData: true });
  const control = (label) => {
    const want = bare(label);
    const all = [...document.querySelectorAll('label')];
    let labels = all.filter((l) => bare(l.textContent) === want);
    if (!labels.length) labels = all.filter((l) => bare(l.textContent).startsWith(want));
    labels.sort((a, b) => visible(b) - visible(a));
    return labels.map((l) => l.closest('.MuiFormControl-root, .MuiAutocomplete-root, .MuiTextField-root') || l.parentElement);
  };
  const input = (label) => {
    for (const fc of control(label)) {
      const el = fc.querySelector('textarea:not([aria-hidden]), input:not([type=hidden]):not(.MuiSelect-nativeInput):not([aria-hidden])');
      if (el) return el;
    }
    return null;
  };
  const combo = (label) => {
    for (const fc of control(label)) {
      const el = fc.querySelector('[role=combobox]');
      if (el) return el;
    }
    return null;
  };
  const setValue = (el, value) => {
    const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return true;
  };
  const clickable = 'button, a, [role=button], [role=menuitem], [role=option], [role=tab], li, .MuiListItemButton-root';
  const byText = (text, root) => {
    const want = norm(text).toLowerCase();
    const all = [...(root || document).querySelectorAll(clickable)].filter(visible);
    return all.find((e) => norm(e.textContent).toLowerCase() === want)
      || all.find((e) => (e.getAttribute('aria-label') || '').toLowerCase() === want) || null;
  };
  const row = (text) => {
    const want = norm(text);
    return [...document.querySelectorAll('tr')].filter(visible)
      .find((tr) => [...tr.querySelectorAll('td')].some((td) => norm(td.textContent) === want)) || null;
  };
  const option = (text) => {
    const all = [...document.querySelectorAll('[role=option]')].filter(visible);
    if (!text) return all[0] || null;
    const want = norm(text).toLowerCase();
    const t = (e) => norm(e.textContent).toLowerCase();
    return all.find((e) => t(e) === want) || all.find((e) => t(e).startsWith(want)) || null;
  };
  const checkbox = (label) => {
    const want = bare(label);
    const l = [...document.querySelectorAll('.MuiFormControlLabel-root')].find((e) => bare(e.textContent) === want);
    return l ? l.querySelector('input[type=checkbox]') : null;
  };
  const point = (el) => {
    if (!el) return null;
    el.scrollIntoView({ block: 'center', inline: 'center' });
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const top = document.elementFromPoint(x, y);
    const disabled = !!(el.disabled || el.getAttribute('aria-disabled') === 'true' || el.classList.contains('Mui-disabled'));
    return { x, y, disabled, covered: !(top && (el === top || el.contains(top) || top.contains(el))) };
  };
  const drain = () => {
    scan();
    const out = alerts.splice(0);
    // Close the error snackbars, so the next step starts clean.
    document.querySelectorAll('.MuiSnackbar-root .MuiAlert-root').forEach((el) => {
      if (!/Error/.test(el.className)) return;
      const b = el.querySelector('.MuiAlert-action button');
      if (b) b.click();
    });
    return out;
  };
  // Open every folded section of a form, as a user looking for a field does.
  const unfold = () => {
    const folded = [...document.querySelectorAll('.MuiAccordionSummary-root[aria-expanded=false]')];
    folded.forEach((e) => e.click());
    return folded.length + 1;
  };
  const pageText = () => norm(document.getElementById('root') ? document.getElementById('root').innerText : document.body.innerText);
  const listOpen = () => [...document.querySelectorAll('[role=listbox]')].some(visible);
  // Whether the field labelled label shows text (its value, a chip, the
  // select's display).
  const chosen = (label, text) => {
    const want = norm(text).toLowerCase();
    return control(label).some((fc) => {
      const values = [...fc.querySelectorAll('input:not([type=hidden])')].map((i) => i.value);
      return norm([fc.innerText, ...values].join(' ')).toLowerCase().includes(want);
    });
  };
  const idle = () => new Promise((resolve) => setTimeout(() => resolve(pending === 0), 0));
  window.__tw = { unfold, norm, visible, input, combo, setValue, byText, row, option, checkbox, point, drain, pageText,
    listOpen, chosen, idle, pending: () => pending,
    busy: () => [...document.querySelectorAll('.MuiCircularProgress-root, .MuiSkeleton-root')].some(visible) };
})()`

// browser is one headless Chromium tab, with what it logged.
type browser struct {
	t     *testing.T
	ctx   context.Context
	base  string
	quiet func() // waits until no request is in flight

	mu       sync.Mutex
	urls     map[network.RequestID]string
	netFails []string // failed loads of this origin's resources
	console  []string // console errors and uncaught exceptions
	external []string // failures of outside resources (map tiles, fonts), not counted

	retries []string // gestures made again because their precondition failed (walk goroutine only)
}

func findChromium(t *testing.T) string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	t.Skip("chromium is not installed (apt-get install chromium)")
	return ""
}

func startBrowser(t *testing.T, base string) *browser {
	b := &browser{t: t, base: base, urls: map[network.RequestID]string{}}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(findChromium(t)),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		// The machine has no way out: outside hosts (map tiles, glyphs)
		// fail at once instead of waiting on DNS.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.Flag("lang", "en-US"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1440, 900),
	)
	ctx, cancelCtx := chromedp.NewContext(alloc, chromedp.WithListener(b.listen))
	t.Cleanup(func() { cancelCtx(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: helperJS}); err != nil {
		t.Fatalf("add helper script: %v", err)
	}
	b.ctx = ctx
	return b
}

var outsideURL = regexp.MustCompile(`(?i)\b(?:https?|wss?)://(?:[a-z0-9-]+\.)+[a-z]{2,}\b`)

func (b *browser) local(u string) bool { return strings.HasPrefix(u, b.base) }

func (b *browser) listen(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		b.urls[ev.RequestID] = ev.Request.URL
	case *network.EventLoadingFailed:
		u := b.urls[ev.RequestID]
		if ev.Canceled || strings.Contains(ev.ErrorText, "ERR_ABORTED") {
			return // an AbortController or a navigation ended it: normal
		}
		if !b.local(u) {
			b.external = append(b.external, u+": "+ev.ErrorText)
			return
		}
		b.netFails = append(b.netFails, fmt.Sprintf("%s failed: %s", strings.TrimPrefix(u, b.base), ev.ErrorText))
	case *runtime.EventExceptionThrown:
		msg := ev.ExceptionDetails.Text
		if ex := ev.ExceptionDetails.Exception; ex != nil {
			msg += " " + ex.Description
		}
		b.addConsole("uncaught: " + msg)
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError {
			return
		}
		var parts []string
		for _, a := range ev.Args {
			switch {
			case a.Description != "":
				parts = append(parts, a.Description)
			case len(a.Value) > 0:
				var s string
				if json.Unmarshal(a.Value, &s) == nil {
					parts = append(parts, s)
				} else {
					parts = append(parts, string(a.Value))
				}
			}
		}
		b.addConsole("console.error: " + strings.Join(parts, " "))
	case *log.EventEntryAdded:
		e := ev.Entry
		if e == nil || e.Level != log.EntryLevelError {
			return
		}
		// A failed /api response is reported from the proxy's record, with
		// its body; the browser's "Failed to load resource" adds nothing.
		if e.Source == log.EntrySourceNetwork && (strings.HasPrefix(e.URL, b.base+"/api/") || !b.local(e.URL)) {
			if !b.local(e.URL) {
				b.external = append(b.external, e.URL+": "+e.Text)
			}
			return
		}
		b.addConsole(fmt.Sprintf("%s: %s %s", e.Source, e.Text, strings.TrimPrefix(e.URL, b.base)))
	}
}

func (b *browser) addConsole(msg string) {
	msg = strings.TrimSpace(msg)
	if len(msg) > 600 {
		msg = msg[:600] + "…"
	}
	if m := outsideURL.FindString(msg); m != "" && !strings.Contains(m, "127.0.0.1") {
		b.external = append(b.external, msg)
		return
	}
	b.console = append(b.console, msg)
}

// externalSince returns the outside failures after mark, and a new mark.
func (b *browser) externalSince(mark int) ([]string, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.external[mark:]...), len(b.external)
}

// since returns what the browser logged after the marks, and new marks.
func (b *browser) since(netMark, consoleMark int) (net, console []string, netNext, consoleNext int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	net = append(net, b.netFails[netMark:]...)
	console = append(console, b.console[consoleMark:]...)
	return net, console, len(b.netFails), len(b.console)
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](ctx context.Context, expr string) (T, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
}

func js(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

type pt struct {
	X, Y     float64
	Disabled bool
	Covered  bool
}

// click waits until the element that find (a JavaScript expression)
// returns is there and enabled, then clicks its centre with the mouse (or,
// when something lies over it, with element.click()).
//
// The element must be at the same place in two looks 100 ms apart: a
// section that is still unfolding, or a list that is still growing, moves
// what the mouse aims at.
func (b *browser) click(ctx context.Context, what, find string) error {
	return b.clickHow(ctx, what, find, true)
}

// mouseClick is click without the element.click() fallback, for what only
// a real mouse press opens (MUI's Select and Autocomplete open on
// mousedown).
func (b *browser) mouseClick(ctx context.Context, what, find string) error {
	return b.clickHow(ctx, what, find, false)
}

func (b *browser) clickHow(ctx context.Context, what, find string, fallback bool) error {
	var last *pt
	start := time.Now()
	for {
		p, err := eval[*pt](ctx, "__tw.point("+find+")")
		stable := p != nil && last != nil && p.X == last.X && p.Y == last.Y
		if err == nil && p != nil && !p.Disabled && stable && (!p.Covered || (fallback && time.Since(start) > 3*time.Second)) {
			if p.Covered {
				_, err = eval[any](ctx, "("+find+").click()")
				return err
			}
			return chromedp.Do(ctx, chromedp.MouseClickXY(p.X, p.Y))
		}
		if err == nil {
			last = p
		}
		select {
		case <-ctx.Done():
			switch {
			case last == nil:
				return fmt.Errorf("%s: not found on the page", what)
			case last.Disabled:
				return fmt.Errorf("%s: stays disabled", what)
			case last.Covered:
				return fmt.Errorf("%s: stays under another element", what)
			}
			return fmt.Errorf("%s: %w", what, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// until waits until a JavaScript expression is true.
func (b *browser) until(ctx context.Context, what, expr string) error {
	for {
		ok, err := eval[bool](ctx, expr)
		if ok && err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: %w", what, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// idle waits until the app has no request under way and has read every
// answer (see helperJS's pending).
func (b *browser) idle(ctx context.Context) error {
	return b.until(ctx, "the app's requests to finish", "__tw.idle()")
}

func (b *browser) clickText(ctx context.Context, text string) error {
	return b.click(ctx, fmt.Sprintf("button %q", text), "__tw.byText("+js(text)+")")
}

// clickIn clicks the button or link text (or aria-label) in the table row
// that has a cell reading row.
func (b *browser) clickIn(ctx context.Context, row, text string) error {
	return b.click(ctx, fmt.Sprintf("%q in the row of %q", text, row),
		"(__tw.row("+js(row)+") && __tw.byText("+js(text)+", __tw.row("+js(row)+")))")
}

// fill types value into the text field labelled label.
func (b *browser) fill(ctx context.Context, label, value string) error {
	return b.until(ctx, fmt.Sprintf("field %q", label),
		"(() => { __tw.unfold(); const el = __tw.input("+js(label)+"); return !!el && __tw.setValue(el, "+js(value)+"); })()")
}

// fillCSS types value into the input that css selects.
func (b *browser) fillCSS(ctx context.Context, css, value string) error {
	return b.until(ctx, fmt.Sprintf("field %s", css),
		"(() => { const el = document.querySelector("+js(css)+"); return !!el && __tw.setValue(el, "+js(value)+"); })()")
}

// choose opens the select or autocomplete labelled label and picks the
// option reading option ("" for the first), as a user does.
func (b *browser) choose(ctx context.Context, label, option string) error {
	return b.chooseWhen(ctx, label, option, nil)
}

// chooseWhen is choose with a precondition: ready, when not nil, is called
// once the list is open and must return before the option is clicked
// (traccar-web's LinkField, for one, breaks when an option is picked
// before both its lists arrived).
//
// Each stage waits for its own condition: the field on screen (its folded
// section opened and done moving: a hidden field takes no mouse press),
// the list open, the option listed, the field showing the option. Opening
// and picking are repeated only when their precondition failed: the list
// did not open, or closed (a re-render) before the option was listed, or
// the field does not show the option after the click.
func (b *browser) chooseWhen(ctx context.Context, label, option string, ready func(context.Context) error) error {
	combo := "__tw.combo(" + js(label) + ")"
	var problem error
	for attempt := 1; attempt <= 3 && ctx.Err() == nil; attempt++ {
		if attempt > 1 {
			b.retries = append(b.retries, fmt.Sprintf("select %q, option %q: opened again (%v)", label, option, problem))
			// Close what is open, so the next look starts from a closed field.
			if open, _ := eval[bool](ctx, "__tw.listOpen()"); open {
				_ = chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape))
				_ = b.until(ctx, "the list to close", "!__tw.listOpen()")
			}
		}
		if err := b.until(ctx, fmt.Sprintf("select %q on the page", label),
			"(() => { __tw.unfold(); const c = "+combo+"; return !!c && __tw.visible(c); })()"); err != nil {
			return err
		}
		if err := b.mouseClick(ctx, fmt.Sprintf("select %q", label), combo); err != nil {
			return err
		}
		octx, cancel := context.WithTimeout(ctx, 3*time.Second)
		err := b.until(octx, "", "__tw.listOpen()")
		cancel()
		if err != nil {
			problem = fmt.Errorf("select %q: its list did not open", label)
			continue
		}
		if ready != nil {
			if err := ready(ctx); err != nil {
				return fmt.Errorf("select %q: %w", label, err)
			}
		}
		// The option, while the list stays open (options that load late
		// show in the open list).
		text, err := b.waitOption(ctx, option)
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("option %q of %q: not listed: %w", option, label, ctx.Err())
			}
			problem = fmt.Errorf("option %q of %q: %w", option, label, err)
			continue
		}
		if err := b.click(ctx, fmt.Sprintf("option %q of %q", option, label), "__tw.option("+js(option)+")"); err != nil {
			problem = err
			continue
		}
		vctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err = b.until(vctx, "", "__tw.chosen("+js(label)+", "+js(text)+")")
		cancel()
		if err != nil {
			problem = fmt.Errorf("select %q: does not show %q after it was clicked", label, text)
			continue
		}
		// A multiple select stays open: close it.
		if open, _ := eval[bool](ctx, "__tw.listOpen()"); open {
			_ = chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape))
			return b.until(ctx, "the list to close", "!__tw.listOpen()")
		}
		return nil
	}
	if problem == nil {
		problem = fmt.Errorf("select %q: %w", label, ctx.Err())
	}
	return problem
}

// waitOption waits until the open list shows option and returns its text;
// it fails when the list closes first.
func (b *browser) waitOption(ctx context.Context, option string) (string, error) {
	type look struct {
		Open bool
		Text *string
	}
	for {
		l, err := eval[look](ctx, "(() => { const o = __tw.option("+js(option)+"); return { open: __tw.listOpen(), text: o ? __tw.norm(o.textContent) : null }; })()")
		if err == nil {
			if l.Text != nil {
				return *l.Text, nil
			}
			if !l.Open {
				return "", fmt.Errorf("the list closed before the option was listed")
			}
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// check clicks the checkbox labelled label.
func (b *browser) check(ctx context.Context, label string) error {
	return b.click(ctx, fmt.Sprintf("checkbox %q", label), "(__tw.unfold() && __tw.checkbox("+js(label)+"))")
}

// expectText waits until the page shows text.
func (b *browser) expectText(ctx context.Context, text string) error {
	return b.until(ctx, fmt.Sprintf("the page to show %q", text), "__tw.pageText().toLowerCase().includes("+js(strings.ToLower(text))+")")
}

// open goes to path inside the app: through a link on the page when one
// leads there, else through the app's router (history.pushState and a
// popstate event, which react-router follows), or with a full load when
// the app is not open.
func (b *browser) open(ctx context.Context, path string) error {
	loc, err := eval[string](ctx, "location.href")
	if err != nil || !strings.HasPrefix(loc, b.base) {
		return b.load(ctx, path)
	}
	if ok, _ := eval[bool](ctx, "!!document.querySelector('#root') && !!window.__tw"); !ok {
		return b.load(ctx, path)
	}
	link := "[...document.querySelectorAll('a[href=" + js(path) + "]')].find(__tw.visible)"
	if ok, _ := eval[bool](ctx, "!!"+link); ok {
		if err := b.click(ctx, "link to "+path, link); err != nil {
			return err
		}
	} else if _, err := eval[any](ctx, "history.pushState({}, '', "+js(path)+"); dispatchEvent(new PopStateEvent('popstate', { state: {} })); true"); err != nil {
		return err
	}
	if err := b.until(ctx, "location "+path, "location.pathname + location.search === "+js(path)); err != nil {
		return err
	}
	// react-router keeps the old page on screen while the new one's code
	// loads: give it a moment before the next click.
	time.Sleep(300 * time.Millisecond)
	b.settle()
	return nil
}

// settle waits until the page has loaded what it asked for.
func (b *browser) settle() {
	if b.quiet != nil {
		b.quiet()
	}
}

// load opens path with a full page load.
func (b *browser) load(ctx context.Context, path string) error {
	if err := chromedp.Do(ctx, chromedp.Navigate(b.base+path)); err != nil {
		return err
	}
	b.settle()
	return nil
}

func (b *browser) location() string {
	ctx, cancel := context.WithTimeout(b.ctx, 3*time.Second)
	defer cancel()
	loc, err := eval[string](ctx, "location.href")
	if err != nil {
		return "?"
	}
	return strings.TrimPrefix(loc, b.base)
}

func (b *browser) screenshot(path string) {
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err == nil {
		err = os.WriteFile(path, png, 0o644)
	}
	if err != nil {
		b.t.Logf("screenshot %s: %v", filepath.Base(path), err)
	}
}
