package traccarweb_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fleetd/fleetd/protocols/catalog"
)

// Credentials of the two accounts the walk uses.
const (
	adminEmail    = "admin@example.com"
	adminPassword = "admin-passphrase-1"
	userEmail     = "user@example.com"
	userPassword  = "user-passphrase-1"
)

// webBuild finds the built traccar-web from TRACCAR_WEB: a build directory
// (with index.html) or a checkout whose build/ holds one. A checkout
// without a build is built with npm ci and npm run build.
func webBuild(t *testing.T) string {
	dir := os.Getenv("TRACCAR_WEB")
	if dir == "" {
		t.Skip("TRACCAR_WEB is not set: set it to a traccar-web checkout or build to run this check (see web/traccarweb/README.md)")
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	// A checkout has an index.html too (vite's source page, which loads
	// /src/index.jsx and never finishes in a browser): its build/ first.
	if fileExists(filepath.Join(dir, "build", "index.html")) {
		return filepath.Join(dir, "build")
	}
	if fileExists(filepath.Join(dir, "index.html")) && !fileExists(filepath.Join(dir, "package.json")) {
		return dir
	}
	if !fileExists(filepath.Join(dir, "package.json")) {
		t.Fatalf("TRACCAR_WEB=%s is neither a traccar-web build (index.html) nor a checkout (package.json)", dir)
	}
	for _, args := range [][]string{{"npm", "ci", "--no-audit", "--no-fund"}, {"npm", "run", "build"}} {
		t.Logf("building traccar-web: %s", strings.Join(args, " "))
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s in %s: %v\n%s", strings.Join(args, " "), dir, err, tail(string(out), 3000))
		}
	}
	return filepath.Join(dir, "build")
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// freePort returns a TCP port that was free a moment ago on 127.0.0.1.
func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// fleetd is a fleetd process built from this repository's source.
type fleetd struct {
	url        string // http://127.0.0.1:port
	osmandPort int
	log        *bytes.Buffer
}

func startFleetd(t *testing.T, dir string) *fleetd {
	// TRACCARWEB_FLEETD: a fleetd binary to walk instead of this tree's
	// (not FLEETD_*: fleetd refuses environment variables it has no key for).
	bin := os.Getenv("TRACCARWEB_FLEETD")
	if bin == "" {
		out, err := exec.Command("go", "env", "GOMOD").Output()
		if err != nil {
			t.Fatalf("go env GOMOD: %v", err)
		}
		root := filepath.Dir(strings.TrimSpace(string(out)))
		bin = filepath.Join(dir, "fleetd")
		cmd := exec.Command("go", "build", "-o", bin, ".")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build fleetd: %v\n%s", err, out)
		}
	}
	f := &fleetd{osmandPort: freePort(t), log: &bytes.Buffer{}}
	webPort := freePort(t)
	f.url = fmt.Sprintf("http://127.0.0.1:%d", webPort)
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(),
		"FLEETD_DATA_DIR="+filepath.Join(dir, "data"),
		fmt.Sprintf("FLEETD_WEB_ADDRESS=127.0.0.1:%d", webPort),
		"FLEETD_ADMIN_EMAIL="+adminEmail,
		"FLEETD_ADMIN_PASSWORD="+adminPassword,
		"FLEETD_LOG_LEVEL=info",
		fmt.Sprintf("FLEETD_PROTOCOLS_OSMAND_PORT=%d", f.osmandPort),
	)
	// Only the OsmAnd listener: the other protocols' default ports may be
	// taken by a fleetd that already runs on this machine.
	for _, p := range catalog.ConfigDefaults().Protocols {
		if p.Name != "osmand" {
			cmd.Env = append(cmd.Env, "FLEETD_PROTOCOLS_"+strings.ToUpper(p.Name)+"_ENABLED=false")
		}
	}
	cmd.Stdout = &lockedWriter{w: f.log}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatalf("start fleetd: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(f.url + "/api/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return f
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("fleetd did not answer /api/health in 30 s: %v\n%s", err, f.log.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// apiClient speaks fleetd's Traccar API directly, to seed the data the
// walk needs and to look up the ids of what the web app created.
type apiClient struct {
	base string
	http *http.Client
}

func login(t *testing.T, base, email, password string) *apiClient {
	jar, _ := cookiejar.New(nil)
	c := &apiClient{base: base, http: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
	resp, err := c.http.PostForm(base+"/api/session", url.Values{"email": {email}, "password": {password}})
	if err != nil {
		t.Fatalf("log in %s: %v", email, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("log in %s: %s %s", email, resp.Status, body)
	}
	return c
}

// call sends one request with a JSON body (nil for none) and decodes a
// JSON answer into out (nil to ignore it).
func (c *apiClient) call(method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, excerpt(b, 300))
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("%s %s: decode %s: %v", method, path, excerpt(b, 200), err)
		}
	}
	return nil
}

// idOf finds the id of the item named name in the list at path (name is
// matched against name, description or email).
func (c *apiClient) idOf(path, name string) (int64, error) {
	var items []map[string]any
	if err := c.call("GET", path, nil, &items); err != nil {
		return 0, err
	}
	for _, it := range items {
		for _, k := range []string{"name", "description", "email"} {
			if s, _ := it[k].(string); s == name {
				id, _ := it["id"].(float64)
				return int64(id), nil
			}
		}
	}
	return 0, fmt.Errorf("GET %s: no item named %q", path, name)
}

func excerpt(b []byte, n int) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > n {
		s = s[:n] + "…"
	}
	return s
}

// apiCall is one request the web app made to /api, as the proxy saw it.
type apiCall struct {
	seq      int
	Method   string
	Path     string // with the query
	Status   int
	ReqBody  string
	RespBody string
}

func (a apiCall) String() string {
	s := fmt.Sprintf("%s %s → %d", a.Method, a.Path, a.Status)
	if a.ReqBody != "" {
		s += " request `" + a.ReqBody + "`"
	}
	if a.RespBody != "" {
		s += " response `" + a.RespBody + "`"
	}
	return s
}

// webServer serves the traccar-web build at one origin and passes /api
// (HTTP and the WebSocket /api/socket) to fleetd, as a reverse proxy in
// front of fleetd does in production. It records every /api call.
type webServer struct {
	url string

	mu       sync.Mutex
	calls    []apiCall // answered, in the order of the answers
	starts   []apiCall // sent, in the order they reached the proxy (no status)
	inflight atomic.Int64
	last     atomic.Int64 // unix nanoseconds of the last request's start or end
}

func startWeb(t *testing.T, build, backend string) *webServer {
	target, err := url.Parse(backend)
	if err != nil {
		t.Fatal(err)
	}
	w := &webServer{}
	proxy := httputil.NewSingleHostReverseProxy(target)
	director := proxy.Director
	proxy.Director = func(r *http.Request) {
		director(r)
		// Plain bodies, so that the report can quote an error's body.
		r.Header.Del("Accept-Encoding")
	}
	proxy.ModifyResponse = func(resp *http.Response) error {
		if resp.StatusCode == http.StatusSwitchingProtocols {
			w.record(resp.Request, resp.StatusCode, "", "")
			return nil
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(b))
		if err != nil {
			return err
		}
		var reqBody, respBody string
		if resp.StatusCode >= 400 {
			respBody = excerpt(b, 400)
			if rb, ok := resp.Request.Context().Value(reqBodyKey{}).([]byte); ok {
				reqBody = excerpt(rb, 300)
			}
		}
		w.record(resp.Request, resp.StatusCode, reqBody, respBody)
		return nil
	}
	proxy.ErrorHandler = func(rw http.ResponseWriter, r *http.Request, err error) {
		w.record(r, http.StatusBadGateway, "", "proxy: "+err.Error())
		rw.WriteHeader(http.StatusBadGateway)
	}
	static := http.FileServer(http.Dir(build))
	handler := http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		socket := r.URL.Path == "/api/socket"
		if !socket {
			w.inflight.Add(1)
			w.last.Store(time.Now().UnixNano())
			defer func() {
				w.last.Store(time.Now().UnixNano())
				w.inflight.Add(-1)
			}()
		}
		if strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/api" {
			if !socket {
				w.started(r)
			}
			if r.Body != nil && r.ContentLength != 0 && !socket {
				b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
				r.Body = io.NopCloser(bytes.NewReader(b))
				r = r.WithContext(context.WithValue(r.Context(), reqBodyKey{}, b))
			}
			r.Header.Set("X-Real-IP", "127.0.0.1")
			proxy.ServeHTTP(rw, r)
			return
		}
		// No service worker: its cache would hide the app's code loads
		// from waitQuiet (the app runs the same without one).
		if r.URL.Path == "/sw.js" {
			rw.Header().Set("Content-Type", "text/javascript")
			_, _ = io.WriteString(rw, "self.addEventListener('install', () => self.skipWaiting());\n")
			return
		}
		// A single-page app: paths that are not files get index.html.
		if r.URL.Path != "/" && !fileExists(filepath.Join(build, filepath.FromSlash(r.URL.Path))) {
			http.ServeFile(rw, r, filepath.Join(build, "index.html"))
			return
		}
		static.ServeHTTP(rw, r)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: handler}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	w.url = "http://" + ln.Addr().String()
	return w
}

type reqBodyKey struct{}

func (w *webServer) record(r *http.Request, status int, reqBody, respBody string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.calls = append(w.calls, apiCall{
		seq: len(w.calls), Method: r.Method, Path: r.URL.RequestURI(),
		Status: status, ReqBody: reqBody, RespBody: respBody,
	})
}

func (w *webServer) started(r *http.Request) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.starts = append(w.starts, apiCall{seq: len(w.starts), Method: r.Method, Path: r.URL.RequestURI()})
}

// apiMark is a point in the proxy's records: what came after it was
// caused by what the walk did after taking it.
type apiMark struct{ starts, calls int }

func (w *webServer) mark() apiMark {
	w.mu.Lock()
	defer w.mu.Unlock()
	return apiMark{len(w.starts), len(w.calls)}
}

// matchPath tells whether the request path got (with its query) is want:
// the same path, with any query; a want ending in * is a prefix.
func matchPath(got, want string) bool {
	if p, ok := strings.CutSuffix(want, "*"); ok {
		return strings.HasPrefix(got, p)
	}
	path, _, _ := strings.Cut(got, "?")
	return path == want
}

// sent tells whether a request method path reached the proxy after m.
func (w *webServer) sent(m apiMark, method, path string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, c := range w.starts[m.starts:] {
		if c.Method == method && matchPath(c.Path, path) {
			return true
		}
	}
	return false
}

// answered returns the answered requests method path after m.
func (w *webServer) answered(m apiMark, method, path string) []apiCall {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []apiCall
	for _, c := range w.calls[m.calls:] {
		if c.Method == method && matchPath(c.Path, path) {
			out = append(out, c)
		}
	}
	return out
}

// waitAnswered waits until n requests method path were answered after m.
func (w *webServer) waitAnswered(ctx context.Context, m apiMark, n int, method, path string) ([]apiCall, error) {
	for {
		if got := w.answered(m, method, path); len(got) >= n {
			return got, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("the answer to %s %s: %w", method, path, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// callsSince returns the calls recorded from index i on, and the next index.
func (w *webServer) callsSince(i int) ([]apiCall, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := append([]apiCall(nil), w.calls[i:]...)
	return out, len(w.calls)
}

// waitQuiet waits until no HTTP request has been in flight for quiet, at
// most max.
func (w *webServer) waitQuiet(quiet, max time.Duration) {
	deadline := time.Now().Add(max)
	for time.Now().Before(deadline) {
		idle := time.Since(time.Unix(0, w.last.Load()))
		if w.inflight.Load() == 0 && idle >= quiet {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// feedOsmAnd sends one OsmAnd HTTP report to fleetd's OsmAnd port.
func feedOsmAnd(f *fleetd, uniqueID string, at time.Time, lat, lon, speedKnots float64, extra string) error {
	q := url.Values{}
	q.Set("id", uniqueID)
	q.Set("lat", fmt.Sprintf("%.6f", lat))
	q.Set("lon", fmt.Sprintf("%.6f", lon))
	q.Set("timestamp", fmt.Sprint(at.Unix()))
	q.Set("speed", fmt.Sprintf("%.1f", speedKnots))
	q.Set("bearing", "90")
	q.Set("altitude", "120")
	q.Set("hdop", "0.9")
	u := fmt.Sprintf("http://127.0.0.1:%d/?%s", f.osmandPort, q.Encode())
	if extra != "" {
		u += "&" + extra
	}
	resp, err := http.Get(u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("osmand %s: %d %s", uniqueID, resp.StatusCode, excerpt(b, 200))
	}
	return nil
}
