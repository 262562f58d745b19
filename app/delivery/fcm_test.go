package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/fleetd/fleetd/app/notify"
	"golang.org/x/oauth2"
)

func TestClassifyFCM(t *testing.T) {
	for _, c := range []struct {
		name   string
		status int
		body   string
		want   error // nil: retryable
	}{
		{"unregistered", 404, `{"error":{"code":404,"status":"NOT_FOUND","details":[{"errorCode":"UNREGISTERED"}]}}`, notify.ErrPushTokenInvalid},
		{"not found without details", 404, `not json`, notify.ErrPushTokenInvalid},
		{"malformed token", 400, `{"error":{"code":400,"message":"The registration token is not a valid FCM registration token","status":"INVALID_ARGUMENT"}}`, notify.ErrPushTokenInvalid},
		{"other project's token", 403, `{"error":{"code":403,"status":"PERMISSION_DENIED","details":[{"errorCode":"SENDER_ID_MISMATCH"}]}}`, notify.ErrPushTokenInvalid},
		{"bad payload", 400, `{"error":{"code":400,"message":"Invalid JSON payload","status":"INVALID_ARGUMENT"}}`, notify.ErrPushPermanent},
		{"bad credentials", 401, `{"error":{"code":401,"status":"UNAUTHENTICATED"}}`, notify.ErrPushPermanent},
		{"quota", 429, `{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","details":[{"errorCode":"QUOTA_EXCEEDED"}]}}`, nil},
		{"unavailable", 503, ``, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := classifyFCM(c.status, []byte(c.body))
			if err == nil {
				t.Fatal("no error")
			}
			for _, sentinel := range []error{notify.ErrPushTokenInvalid, notify.ErrPushPermanent} {
				if errors.Is(err, sentinel) != (c.want == sentinel) {
					t.Errorf("%v: errors.Is(%v) should be %v", err, sentinel, c.want == sentinel)
				}
			}
		})
	}
}

// TestFCMRequest checks the HTTP v1 request: path, bearer token, body.
func TestFCMRequest(t *testing.T) {
	var got struct {
		path, auth string
		body       map[string]map[string]any
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.path, got.auth = r.URL.Path, r.Header.Get("Authorization")
		json.NewDecoder(r.Body).Decode(&got.body)
	}))
	defer srv.Close()
	f := &FCM{Endpoint: srv.URL, ProjectID: "p-1", Client: srv.Client(),
		Tokens: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "at", TokenType: "Bearer"})}
	err := f.Push(context.Background(), notify.PushMessage{Token: "tk", Title: "Truck", Body: "Ignition on",
		Data: map[string]string{"type": "ignitionOn"}})
	if err != nil {
		t.Fatal(err)
	}
	m := got.body["message"]
	n, _ := m["notification"].(map[string]any)
	d, _ := m["data"].(map[string]any)
	if got.path != "/v1/projects/p-1/messages:send" || got.auth != "Bearer at" || m["token"] != "tk" ||
		n["title"] != "Truck" || n["body"] != "Ignition on" || d["type"] != "ignitionOn" {
		t.Fatalf("request %+v", got)
	}
}

func TestNewFCMRejectsBadKeyFiles(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"not json":    "{",
		"no key":      `{"client_email":"a@b","project_id":"p","token_uri":"https://x/token"}`,
		"no project":  `{"client_email":"a@b","private_key":"k","token_uri":"https://x/token"}`,
		"no tokenuri": `{"client_email":"a@b","private_key":"k","project_id":"p"}`,
	} {
		path := filepath.Join(dir, "sa.json")
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := NewFCM(path, "", "", "", nil); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := NewFCM(filepath.Join(dir, "missing.json"), "", "", "", nil); err == nil {
		t.Error("missing file accepted")
	}
}
