package api

import (
	"encoding/json"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/live"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/contrib/websocket"
	"github.com/gofiber/fiber/v2"
)

const socketWriteTimeout = 10 * time.Second

// socket is GET /api/socket, Traccar's live updates: the latest position of
// every visible device on open, then {"devices"}, {"positions"} and
// {"events"} (notifications on the web channel) messages as they happen,
// {"logs"} (the frames of the devices the client sees, hex) once the client
// sent {"logs": true}, and {} as keep-alive.
func (h *handlers) socket() fiber.Handler {
	ws := websocket.New(h.serveSocket)
	return func(c *fiber.Ctx) error {
		if !websocket.IsWebSocketUpgrade(c) {
			return &model.Error{Class: model.ClassInvalid, Message: "WebSocket required",
				Description: "GET /api/socket must be a WebSocket upgrade request"}
		}
		c.Locals(socketUserKey, httpx.User(c))
		c.Locals(socketSessionKey, httpx.SessionToken(c))
		return ws(c)
	}
}

const (
	socketUserKey    = "fleetd.socket.user"
	socketSessionKey = "fleetd.socket.session"
)

func (h *handlers) serveSocket(conn *websocket.Conn) {
	user, _ := conn.Locals(socketUserKey).(*model.User)
	if user == nil {
		return
	}
	session, _ := conn.Locals(socketSessionKey).(string)
	// Subscribe before reading the latest positions, so nothing that
	// happens in between is missed.
	sub := h.core.Subscribe(user, session)
	defer sub.Close()
	latest, err := h.core.Fleet.Positions(user, fleet.PositionQuery{})
	if err != nil || writeJSON(conn, live.Update{Positions: latest}) != nil {
		return
	}
	closed := make(chan struct{})
	go func() { // reading notices the close, and {"logs": bool} from the client
		defer close(closed)
		for {
			_, msg, err := conn.ReadMessage()
			if err != nil {
				return
			}
			var in struct {
				Logs *bool `json:"logs"`
			}
			if json.Unmarshal(msg, &in) == nil && in.Logs != nil {
				sub.WantLogs(*in.Logs)
			}
		}
	}()
	// The websocket package recycles conn once this returns: the reader
	// must be done with it by then.
	defer func() { conn.Close(); <-closed }()
	keepAlive := time.NewTicker(h.opts.KeepAlive)
	defer keepAlive.Stop()
	for {
		select {
		case u, ok := <-sub.C:
			if !ok { // the hub dropped this client
				msg := websocket.FormatCloseMessage(websocket.CloseTryAgainLater, "too slow")
				if sub.Revoked() {
					msg = websocket.FormatCloseMessage(websocket.ClosePolicyViolation, "access ended")
				}
				conn.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
				return
			}
			if writeJSON(conn, u) != nil {
				return
			}
		case <-keepAlive.C:
			if writeJSON(conn, live.Update{}) != nil {
				return
			}
		case <-closed:
			return
		}
	}
}

// writeJSON encodes without httpx's normalising pass: updates are shared by
// every subscriber and must not be modified, and the ingest already hands
// them over in normal form (UTC times, attributes never nil).
func writeJSON(conn *websocket.Conn, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	conn.SetWriteDeadline(time.Now().Add(socketWriteTimeout))
	return conn.WriteMessage(websocket.TextMessage, data)
}
