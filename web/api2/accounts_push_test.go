package api2_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/delivery"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/notify"
	"github.com/fleetd/fleetd/web/internal/sinktest"
)

// fakeFCM stands in for Google: an OAuth2 token endpoint and FCM's HTTP v1
// send endpoint. Token "dead" is answered as FCM answers an uninstalled app.
type fakeFCM struct {
	srv  *httptest.Server
	mu   sync.Mutex
	msgs []fcmMessage
	got  chan fcmMessage
}

type fcmMessage struct {
	Token        string                       `json:"token"`
	Notification struct{ Title, Body string } `json:"notification"`
	Data         map[string]string            `json:"data"`
}

func startFCM(t *testing.T) *fakeFCM {
	f := &fakeFCM{got: make(chan fcmMessage, 64)}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		if r.FormValue("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer" || r.FormValue("assertion") == "" {
			http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"access_token":"test-access","token_type":"Bearer","expires_in":3600}`))
	})
	mux.HandleFunc("POST /v1/projects/test-project/messages:send", func(w http.ResponseWriter, r *http.Request) {
		var in struct{ Message fcmMessage }
		if r.Header.Get("Authorization") != "Bearer test-access" || json.NewDecoder(r.Body).Decode(&in) != nil {
			http.Error(w, `{"error":{"code":401,"status":"UNAUTHENTICATED"}}`, http.StatusUnauthorized)
			return
		}
		if in.Message.Token == "dead" {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND",
				"details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"UNREGISTERED"}]}}`))
			return
		}
		f.mu.Lock()
		f.msgs = append(f.msgs, in.Message)
		f.mu.Unlock()
		f.got <- in.Message
		w.Write([]byte(`{"name":"projects/test-project/messages/1"}`))
	})
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeFCM) to(token string) []fcmMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []fcmMessage
	for _, m := range f.msgs {
		if m.Token == token {
			out = append(out, m)
		}
	}
	return out
}

// serviceAccountFile writes a service-account key file with a fresh RSA key.
func serviceAccountFile(t *testing.T) string {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	must(t, err)
	der, err := x509.MarshalPKCS8PrivateKey(key)
	must(t, err)
	sa, _ := json.Marshal(map[string]string{"type": "service_account", "project_id": "test-project",
		"client_email": "fleetd@test-project.iam.gserviceaccount.com",
		"private_key":  string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))})
	path := filepath.Join(t.TempDir(), "sa.json")
	must(t, os.WriteFile(path, sa, 0o600))
	return path
}

// TestIgnitionPush: an ignitionOn from the ingest reaches the push endpoint
// for alice (switch on, sees the device), not for bob (switched off) nor
// carol (cannot see it); alice's dead token is removed.
func TestIgnitionPush(t *testing.T) {
	fcm := startFCM(t)
	sender, err := delivery.NewFCM(serviceAccountFile(t), fcm.srv.URL, "", fcm.srv.URL+"/token", fcm.srv.Client())
	must(t, err)
	e := newAcctEnv(t, func(o *app.Options) {
		o.Push = notify.PushOptions{Sender: sender, Backoff: time.Millisecond}
	})
	for user, token := range map[string]string{"alice": "tok-alice", "bob": "tok-bob", "carol": "tok-carol"} {
		if r := e.Call(t, user, "PUT", "/api2/notifications/tokens", `{"token":"`+token+`"}`); r.Status != 200 {
			t.Fatalf("K3 %s: %d %s", user, r.Status, r.Body)
		}
	}
	must(t, e.Core.Notify.AddPushToken(e.userOf(t, "alice"), "dead"))
	if r := e.Call(t, "bob", "PUT", "/api2/notifications/settings", `{"type":"ignition","isOn":false}`); r.Status != 200 {
		t.Fatalf("K2: %d %s", r.Status, r.Body)
	}
	truck, err := e.Core.Fleet.Devices.Create(model.System(), func(d *model.Device) error {
		d.Name, d.UniqueID = "Truck 7", "860000000000007"
		return nil
	})
	must(t, err)
	for _, user := range []string{"alice", "bob"} {
		must(t, e.Core.Fleet.Link(model.System(), model.Permission{OwnerKind: model.KindUser, OwnerID: e.IDs[user],
			PropKind: model.KindDevice, PropID: truck.ID}))
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.Core.Notify.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	at := e.clock.now().Add(-time.Minute)
	for i, on := range []bool{false, true} {
		fix := at.Add(time.Duration(i) * 10 * time.Second)
		must(t, e.Core.Ingest.Ingest(truck.ID, []*model.Position{{DeviceID: truck.ID, Protocol: "test", DeviceTime: fix,
			FixTime: fix, Valid: true, Latitude: 52.5, Longitude: 13.4, Attributes: model.Attributes{"ignition": on}}}))
	}
	sinktest.WaitIdle(t, e.Core.Notify)
	got := fcm.to("tok-alice")
	if len(got) != 1 || got[0].Data["type"] != model.EventIgnitionOn || got[0].Notification.Title != "Truck 7: ignition on" ||
		!strings.HasPrefix(got[0].Notification.Body, "Truck 7: ignition on at ") || got[0].Data["deviceId"] == "" {
		t.Fatalf("alice got %+v", got)
	}
	if b, c := fcm.to("tok-bob"), fcm.to("tok-carol"); len(b)+len(c) != 0 {
		t.Fatalf("bob got %+v, carol got %+v", b, c)
	}
	if tokens := e.tokens(t, "alice"); len(tokens) != 1 || tokens[0] != "tok-alice" {
		t.Fatalf("alice's tokens %v: the dead one should be gone", tokens)
	}
	if s := e.Core.Notify.PushStats(); s.TokensRemoved != 1 || s.Dropped != 0 {
		t.Fatalf("stats %+v", s)
	}
}
