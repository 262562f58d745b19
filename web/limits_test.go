package web_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/config"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// site is the world of newAppEnv on a real listener: the
// administrator's session cookie, uploads of up to 8 MiB allowed.
type site struct {
	*appEnv
	cookie *http.Cookie
	addr   string
}

func newSite(t *testing.T, opts web.Options) *site {
	t.Helper()
	e := newAppEnv(t, opts, largeFiles)
	return &site{appEnv: e, cookie: e.Cookie(t, "admin"), addr: webtest.Serve(t, e.App)}
}

// largeFiles allows uploads of up to 8 MiB.
func largeFiles(o *app.Options) { o.Office.MaxFileSize = 8 << 20 }

// dial opens a raw connection, for requests no HTTP client would send.
func (s *site) dial(t *testing.T) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// head is a request's line and headers for a body of size bytes
// (-1: chunked), with the session cookie when cookie is set.
func (s *site) head(method, path, contentType string, size int, cookie bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\n", method, path, s.addr, contentType)
	if size >= 0 {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", size)
	} else {
		b.WriteString("Transfer-Encoding: chunked\r\n")
	}
	if cookie {
		fmt.Fprintf(&b, "Cookie: %s\r\n", s.cookie)
	}
	b.WriteString("\r\n")
	return b.String()
}

// untilClosed reads what the server sends until it closes the
// connection. A server that keeps it open fails the test after a patience
// far beyond any limit the tests configure.
func untilClosed(t *testing.T, c net.Conn) string {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	data, err := io.ReadAll(c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the server kept the connection open (received %q)", data)
	}
	return string(data) // a reset counts as closed
}

// statuses are the status codes of the responses in raw, up to the first
// that is cut short.
func statuses(raw string) []int {
	var out []int
	r := bufio.NewReader(strings.NewReader(raw))
	for {
		res, err := http.ReadResponse(r, nil)
		if err != nil {
			return out
		}
		out = append(out, res.StatusCode)
		if _, err := io.Copy(io.Discard, res.Body); err != nil {
			return out
		}
	}
}

// quick are limits short enough for tests.
var quick = httpx.Limits{ReadTimeout: 300 * time.Millisecond, IdleTimeout: 300 * time.Millisecond,
	WriteTimeout: time.Second, MinBodyRate: 64 << 10, MaxBody: 64 << 10, MaxUpload: 1 << 20}

// A server configured with nothing has the limits a config file would
// give it: the defaults are written down twice, as Go and as config keys.
func TestDefaultLimitsAreTheConfigDefaults(t *testing.T) {
	w := config.NewRegistry(config.DeviceDefaults{}).Default().Web
	got := httpx.Limits{ReadTimeout: w.ReadTimeout, MinBodyRate: w.MinBodyRate, WriteTimeout: w.WriteTimeout,
		IdleTimeout: w.IdleTimeout, MaxBody: w.MaxBodySize, MaxUpload: httpx.DefaultLimits.MaxUpload,
		MaxConns: w.MaxConnections, MaxConnsPerIP: w.MaxConnsPerIP}
	if got != httpx.DefaultLimits {
		t.Fatalf("config defaults %+v, httpx.DefaultLimits %+v", got, httpx.DefaultLimits)
	}
}

// Connections held open count against the cap: past it a new one is
// answered 503 and closed at once.
func TestConnectionCap(t *testing.T) {
	s := newSite(t, web.Options{Limits: httpx.Limits{MaxConns: 3}})
	for range 3 { // connections that are open and have sent nothing yet
		s.dial(t)
	}
	c := s.dial(t)
	io.WriteString(c, "GET /api/health HTTP/1.1\r\nHost: fleetd\r\nConnection: close\r\n\r\n")
	if got := statuses(untilClosed(t, c)); fmt.Sprint(got) != "[503]" {
		t.Fatalf("answers %v, want [503]", got)
	}
}

// One address holding web.maxConnectionsPerIp connections gets a 429 for
// the next, and its place back when one closes; behind a trusted proxy,
// which is every client's address, the cap is not applied.
func TestConnectionCapPerAddress(t *testing.T) {
	for _, tc := range []struct {
		name    string
		proxies []string
		want    int
	}{
		{"direct clients", nil, 429},
		{"behind a trusted proxy", []string{"127.0.0.1"}, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := web.Options{Limits: httpx.Limits{MaxConnsPerIP: 3}, TrustedProxies: tc.proxies,
				Logger: slog.New(slog.DiscardHandler)}
			f := newAppEnv(t, opts).App
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			go f.Listener(web.Listener(ln, opts))
			t.Cleanup(func() { f.Shutdown() })
			s := &site{addr: ln.Addr().String()}
			var held []net.Conn
			for range 3 {
				held = append(held, s.dial(t))
			}
			health := func() []int {
				c := s.dial(t)
				io.WriteString(c, "GET /api/health HTTP/1.1\r\nHost: fleetd\r\nConnection: close\r\n\r\n")
				return statuses(untilClosed(t, c))
			}
			if got := health(); fmt.Sprint(got) != fmt.Sprint([]int{tc.want}) {
				t.Fatalf("a fourth connection: %v, want [%d]", got, tc.want)
			}
			held[0].Close()
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if got := health(); fmt.Sprint(got) == "[200]" {
					break
				} else if time.Now().After(deadline) {
					t.Fatalf("after one closed: %v, want [200]", got)
				}
			}
		})
	}
}

// Every way of holding a connection without finishing a request ends:
// the server closes it, answering 408 where a request was begun.
func TestStalledClientsAreCutOff(t *testing.T) {
	s := newSite(t, web.Options{Limits: quick})
	upload, uploadType := multipartBody(t, 200<<10)
	tests := []struct {
		name   string
		send   string
		status []int
	}{
		{"nothing sent", "", []int{408}},
		{"unfinished headers", "POST /api/devices HTTP/1.1\r\nHost: fleetd\r\nContent-Ty", []int{408}},
		{"a declared body, one byte sent", s.head("POST", "/api/devices", "application/json", 60<<10, true) + "{", []int{408}},
		{"a body stalled after its first 8 KiB", s.head("POST", "/api/devices", "application/json", 60<<10, true) +
			strings.Repeat(" ", 9000), []int{408}},
		{"an upload stalled", s.head("POST", "/api2/files", uploadType, len(upload), true) + string(upload[:9000]), []int{408}},
		{"a keep-alive connection left idle", "GET /api/health HTTP/1.1\r\nHost: fleetd\r\n\r\n", []int{200}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // without the limits each case waits out untilClosed's patience
			c := s.dial(t)
			if _, err := io.WriteString(c, tc.send); err != nil {
				t.Fatal(err)
			}
			raw := untilClosed(t, c)
			if got := statuses(raw); fmt.Sprint(got) != fmt.Sprint(tc.status) {
				t.Fatalf("answers %v, want %v:\n%s", got, tc.status, raw)
			}
		})
	}
}

// A body that keeps arriving at the minimum rate is read to its end,
// however much longer than the read timeout that takes.
func TestSlowBodiesAreRead(t *testing.T) {
	limits := quick
	limits.MinBodyRate = 16 << 10 // each 15,000-byte piece buys 0.9 s
	s := newSite(t, web.Options{Limits: limits})
	var notes []string // 60,000 characters in strings no longer than model.MaxText
	for i := range 15 {
		notes = append(notes, fmt.Sprintf(`"notes%d":"%s"`, i, strings.Repeat("n", 4000)))
	}
	body := `{"name":"Truck","uniqueId":"1","attributes":{` + strings.Join(notes, ",") + `}}`
	c := s.dial(t)
	io.WriteString(c, s.head("POST", "/api/devices", "application/json", len(body), true))
	for piece := range 4 {
		if piece > 0 {
			time.Sleep(limits.ReadTimeout) // four pieces take 3 read timeouts
		}
		io.WriteString(c, body[piece*len(body)/4:(piece+1)*len(body)/4])
	}
	io.WriteString(c, "GET /api/health HTTP/1.1\r\nHost: fleetd\r\nConnection: close\r\n\r\n")
	if got := statuses(untilClosed(t, c)); fmt.Sprint(got) != "[200 200]" {
		t.Fatalf("answers %v, want the device created and the connection kept", got)
	}
}

// A client declaring a large body costs what it sent, not what it
// declared: fasthttp would reserve the declared length up front.
func TestStalledBodiesReserveNoMemory(t *testing.T) {
	const clients, declared = 16, 1 << 20
	s := newSite(t, web.Options{Limits: httpx.Limits{ReadTimeout: 300 * time.Millisecond, MaxBody: declared, MaxUpload: 4 << 20}})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var wg sync.WaitGroup
	for range clients {
		c := s.dial(t)
		io.WriteString(c, s.head("POST", "/api/devices", "application/json", declared, true)+"{")
		wg.Go(func() { untilClosed(t, c) })
	}
	wg.Wait()
	runtime.ReadMemStats(&after)
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > clients*declared/4 {
		t.Fatalf("%d clients declaring %d bytes and sending 1 made the server allocate %d bytes", clients, declared, allocated)
	}
}

// Bodies are capped by route: JSON and forms at MaxBody, uploads at
// MaxUpload and only on the upload route, after its authentication. A body
// over the cap is refused once fasthttp has its first 8 KiB, not read to
// its end (nor waited for), and the connection closes.
func TestBodyLimitsPerRoute(t *testing.T) {
	s := newSite(t, web.Options{Limits: quick})
	device := func(size int) string { // a device whose JSON is size bytes long, no string over model.MaxText
		const frame = `{"name":"Truck","uniqueId":"","attributes":{}}`
		var attrs []string
		for i, left := 0, size-len(frame)-len(strconv.Itoa(size)); left > 0; i++ {
			key := fmt.Sprintf(`"n%d":""`, i)
			n := min(model.MaxText, max(0, left-len(key)-1))
			attrs = append(attrs, fmt.Sprintf(`"n%d":"%s"`, i, strings.Repeat("n", n)))
			left -= len(key) + n + 1
		}
		body := fmt.Sprintf(`{"name":"Truck","uniqueId":"%d","attributes":{%s}}`, size, strings.Join(attrs, ","))
		return body + strings.Repeat(" ", size-len(body)) // JSON allows trailing space
	}
	upload, uploadType := multipartBody(t, 200<<10)
	large, largeType := multipartBody(t, 2<<20)
	// begun sends the head for the whole body but only its first 9,000
	// bytes: a refusal must not wait for the rest.
	begun := func(method, path, contentType, body string, cookie bool) string {
		return s.head(method, path, contentType, len(body), cookie) + body[:9000]
	}
	chunked := func(body string) string { return fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(body), body) }
	tests := []struct {
		name   string
		send   string
		status int
		// closed: the rest of the body is not read, so the connection
		// cannot carry another request.
		closed bool
	}{
		{"JSON within the body limit", s.head("POST", "/api/devices", "application/json", 60<<10, true) + device(60<<10), 200, false},
		{"JSON over the limit", begun("POST", "/api/devices", "application/json", device(100<<10), true), 413, true},
		{"JSON over the limit, chunked", s.head("POST", "/api/devices", "application/json", -1, true) + chunked(device(100<<10)), 413, true},
		{"an upload on the upload route", s.head("POST", "/api2/files", uploadType, len(upload), true) + string(upload), 201, false},
		{"an upload without a session", begun("POST", "/api2/files", uploadType, string(upload), false), 401, true},
		{"an upload to a JSON route", begun("POST", "/api/devices", uploadType, string(upload), true), 415, true},
		{"an upload over the upload limit", begun("POST", "/api2/files", largeType, string(large), true), 413, true},
		{"a compressed body", strings.Replace(s.head("POST", "/api/devices", "application/json", 2, true),
			"\r\n\r\n", "\r\nContent-Encoding: gzip\r\n\r\n", 1) + "{}", 415, true},
		// Fiber's c.Body() decodes by the last Content-Encoding header,
		// and unpacks "gzip, gzip" in turn without a limit: 700 bytes
		// became 300 MB.
		{"a compressed body behind an identity header", strings.Replace(s.head("POST", "/api/devices", "application/json", 2, true),
			"\r\n\r\n", "\r\nContent-Encoding: identity\r\nContent-Encoding: gzip, gzip\r\n\r\n", 1) + "{}", 415, true},
		{"a compressed body behind an empty header", strings.Replace(s.head("POST", "/api/devices", "application/json", 2, true),
			"\r\n\r\n", "\r\nContent-Encoding:\r\nContent-Encoding: gzip\r\n\r\n", 1) + "{}", 415, true},
		{"a compressed body listed after identity", strings.Replace(s.head("POST", "/api/devices", "application/json", 2, true),
			"\r\n\r\n", "\r\nContent-Encoding: identity, gzip\r\n\r\n", 1) + "{}", 415, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := s.dial(t)
			// A second request after the first shows whether the
			// connection stayed usable.
			io.WriteString(c, tc.send+"GET /api/health HTTP/1.1\r\nHost: fleetd\r\nConnection: close\r\n\r\n")
			got := statuses(untilClosed(t, c))
			want := []int{tc.status, 200}
			if tc.closed {
				want = want[:1]
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("answers %v, want %v", got, want)
			}
		})
	}
}

// A body no handler read is never taken for the next request, whoever
// answered before reading it: the cross-site check, Fiber itself (a
// method it does not know), a route. Behind a proxy that reuses its
// connections the rest of such a body would be a request of the
// attacker's, answered to whoever is next on that connection.
func TestUnreadBodiesCloseTheConnection(t *testing.T) {
	s := newSite(t, web.Options{Limits: quick})
	// fasthttp takes a body's first 8 KiB before any handler: what
	// follows is what a server that reuses the connection reads next.
	smuggled := strings.Repeat(" ", 8<<10) + "GET /api/health HTTP/1.1\r\nHost: fleetd\r\nConnection: close\r\n\r\n"
	withOrigin := func(head string) string {
		return strings.Replace(head, "\r\n\r\n", "\r\nOrigin: https://elsewhere.example\r\n\r\n", 1)
	}
	tests := []struct {
		name   string
		send   string
		status int
	}{
		{"refused as cross-site", withOrigin(s.head("POST", "/api/devices", "application/json", len(smuggled), true)), 403},
		{"an unknown method", s.head("BREW", "/api/devices", "application/json", len(smuggled), true), 400},
		{"refused as cross-site, chunked", withOrigin(s.head("POST", "/api/devices", "application/json", -1, true)), 403},
		// Read as chunks, but a proxy in front may have taken the
		// Content-Length: RFC 9112 section 6.1 has the server close.
		{"chunks and a Content-Length", strings.Replace(s.head("POST", "/api/devices", "application/json", -1, true),
			"\r\n\r\n", "\r\nContent-Length: 3\r\n\r\n", 1), 400},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := smuggled
			if strings.Contains(tc.send, "chunked") {
				body = fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(smuggled), smuggled) +
					"GET /api/health HTTP/1.1\r\nHost: fleetd\r\nConnection: close\r\n\r\n"
			}
			c := s.dial(t)
			io.WriteString(c, tc.send+body)
			if got := statuses(untilClosed(t, c)); fmt.Sprint(got) != fmt.Sprint([]int{tc.status}) {
				t.Fatalf("answers %v, want [%d] and the connection closed", got, tc.status)
			}
		})
	}
}

// slowLink keeps the server's socket buffers small, so that a client that
// does not read soon blocks the server's writes.
type slowLink struct{ net.Listener }

func (l slowLink) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(64 << 10)
	}
	return c, err
}

// Streamed downloads (a file, a position history) are exempt from the
// write timeout while the client keeps taking them, and cut off when it
// stops reading.
func TestStreamedDownloads(t *testing.T) {
	limits := quick
	e := newAppEnv(t, web.Options{Limits: limits}, largeFiles)
	core, admin := e.Core, e.admin(t)
	content := append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte("x"), 1<<20)...)
	file, err := core.Office.UploadFile(admin, "big.pdf", "application/pdf", int64(len(content)), bytes.NewReader(content))
	if err != nil {
		t.Fatal(err)
	}
	device, err := core.Fleet.Devices.Create(admin, func(d *model.Device) error { d.Name, d.UniqueID = "Truck", "1"; return nil })
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var positions []*model.Position
	for i := range 3000 {
		positions = append(positions, &model.Position{FixTime: start.Add(time.Duration(i) * time.Second), Valid: true, Latitude: 1, Longitude: 1})
	}
	if err := core.Ingest.Ingest(device.ID, positions); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go e.App.Listener(slowLink{ln})
	t.Cleanup(func() { e.App.Shutdown() })
	cookie := e.Cookie(t, "admin")

	for _, path := range []string{
		"/api2/files/" + file.ID.String(),
		fmt.Sprintf("/api/positions?deviceId=%d&from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z", device.ID),
	} {
		get := func(t *testing.T) (net.Conn, *bufio.Reader) {
			c, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			c.(*net.TCPConn).SetReadBuffer(64 << 10)
			fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: fleetd\r\nCookie: %s\r\nConnection: close\r\n\r\n", path, cookie)
			return c, bufio.NewReaderSize(c, 4<<10)
		}
		t.Run("a slow reader gets it all "+path, func(t *testing.T) {
			c, r := get(t)
			c.SetReadDeadline(time.Now().Add(time.Minute))
			res, err := http.ReadResponse(r, nil)
			if err != nil {
				t.Fatal(err)
			}
			// 8 KiB every 10 ms: far longer in all than the write timeout
			// (1 s), never near it between two reads.
			n, buf := 0, make([]byte, 8<<10)
			for err == nil {
				var k int
				k, err = res.Body.Read(buf)
				n += k
				time.Sleep(10 * time.Millisecond)
			}
			if err != io.EOF || res.StatusCode != 200 || n < 512<<10 {
				t.Fatalf("status %d, read %d bytes, then %v", res.StatusCode, n, err)
			}
		})
		t.Run("a reader that stops is cut off "+path, func(t *testing.T) {
			c, r := get(t)
			c.SetReadDeadline(time.Now().Add(time.Minute))
			res, err := http.ReadResponse(r, nil)
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(4 * limits.WriteTimeout)
			n, err := io.Copy(io.Discard, res.Body)
			var ne net.Error
			if err == nil || (errors.As(err, &ne) && ne.Timeout()) || errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatalf("read %d bytes after pausing, then %v: want the server to have cut the download short", n, err)
			}
		})
	}
}
