package protocols

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/inbox"
	"github.com/fleetd/fleetd/app/model"
)

// HTTPProtocol is a device protocol spoken over HTTP requests (OsmAnd and
// the Traccar Client app): each request carries the device id, and queued
// commands travel back in the response body.
type HTTPProtocol interface {
	Name() string
	Decode(method, contentType string, query url.Values, body []byte, now time.Time) (uniqueID string, positions []*model.Position, err error)
	CommandTypes() []string
	EncodeCommand(cmd *model.Command) (string, error)
}

// HTTPSink adds to Sink what a connectionless protocol needs.
type HTTPSink interface {
	Sink
	TakeQueued(deviceID int64) ([]*model.Command, error)
}

// HTTPServer is one HTTP protocol's listener. Requests are read by the
// device listener's machinery (see splitHTTP), so the frame budget, frame
// and idle timeouts and the per-IP cap bound them as they bound streams.
type HTTPServer struct {
	*Server
	proto HTTPProtocol
	sink  HTTPSink
	opts  Options
}

// ListenHTTP starts serving proto on addr.
func ListenHTTP(proto HTTPProtocol, addr string, sink HTTPSink, opts Options) (*HTTPServer, error) {
	opts.defaults()
	srv, err := listen(proto.Name(), splitHTTP, addr, sink, opts)
	if err != nil {
		return nil, err
	}
	s := newHTTPServer(srv, proto, sink, opts)
	srv.start()
	return s, nil
}

// newHTTPServer makes srv serve the HTTP protocol proto.
func newHTTPServer(srv *Server, proto HTTPProtocol, sink HTTPSink, opts Options) *HTTPServer {
	s := &HTTPServer{Server: srv, proto: proto, sink: sink, opts: opts}
	srv.handle, srv.connSplit = s.request, splitContinuing
	return s
}

// ServeHTTP answers 200 only once the positions are durable; 400 for a
// request it cannot decode, 404 for an unknown device (Traccar's answers),
// 503 when storing failed so the client retries.
func (s *HTTPServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.Stats.Frames.Add(1)
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(s.opts.MaxFrame)))
	if err != nil {
		s.Stats.Oversized.Add(1)
		http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
		return
	}
	uid, positions, err := s.decode(r, body)
	seen := inbox.Seen{Protocol: s.name, Remote: r.RemoteAddr, UniqueID: uid}
	if s.opts.Tap != nil {
		// What the inbox keeps of a request: its method, target and body.
		seen.Data = append([]byte(r.Method+" "+r.URL.RequestURI()+"\n"), body...)
	}
	if err != nil {
		s.Stats.DecodeErrors.Add(1)
		seen.Problem = "not decoded: " + err.Error()
		s.tapped(seen)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	d, err := s.sink.Identify(s.proto.Name(), uid, r.RemoteAddr)
	if err != nil {
		s.Stats.Unknown.Add(1)
		seen.Problem = inbox.UnknownDevice
		s.tapped(seen)
		http.Error(w, "unknown device", http.StatusNotFound)
		return
	}
	seen.DeviceID = d.ID
	s.tapped(seen)
	for _, p := range positions {
		p.Protocol = s.proto.Name()
	}
	if len(positions) > 0 {
		if err := s.store(d.ID, positions); err != nil {
			http.Error(w, "not stored, retry", http.StatusServiceUnavailable)
			return
		}
		if seen.Problem = dropped(positions); seen.Problem != "" {
			s.tapped(seen)
		}
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	io.WriteString(w, s.commands(d.ID))
}

func (s *HTTPServer) decode(r *http.Request, body []byte) (uid string, positions []*model.Position, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.Stats.Panics.Add(1)
			s.opts.Logger.Error("decoder panic", "protocol", s.proto.Name(), "panic", p, "url", r.URL.String())
			err = errors.New("bad request")
		}
	}()
	params := r.URL.Query()
	contentType := r.Header.Get("Content-Type")
	if strings.HasPrefix(contentType, "application/x-www-form-urlencoded") {
		form, err := url.ParseQuery(string(body))
		if err != nil {
			return "", nil, err
		}
		for k, v := range form {
			params[k] = append(params[k], v...)
		}
	}
	return s.proto.Decode(r.Method, contentType, params, body, time.Now())
}

// commands renders the device's queued commands, one per line.
func (s *HTTPServer) commands(deviceID int64) string {
	cmds, err := s.sink.TakeQueued(deviceID)
	if err != nil {
		s.opts.Logger.Warn("queued commands not read", "deviceId", deviceID, "err", err)
	}
	var out []string
	for _, cmd := range cmds {
		text, err := s.proto.EncodeCommand(cmd)
		if err != nil {
			s.opts.Logger.Warn("queued command dropped", "deviceId", deviceID, "type", cmd.Type, "err", err)
			continue
		}
		out = append(out, text)
	}
	return strings.Join(out, "\n")
}
