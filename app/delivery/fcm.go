package delivery

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/fleetd/fleetd/app/notify"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/jwt"
)

// FCMEndpoint is Firebase Cloud Messaging's API root.
const FCMEndpoint = "https://fcm.googleapis.com"

const fcmScope = "https://www.googleapis.com/auth/firebase.messaging"

// FCM sends push messages through FCM's HTTP v1 API
// (POST {Endpoint}/v1/projects/{ProjectID}/messages:send) with an OAuth2
// bearer token from a service account.
type FCM struct {
	Endpoint  string
	ProjectID string
	Tokens    oauth2.TokenSource
	Client    *http.Client
}

// serviceAccount is the part of a Google service-account key file FCM needs.
type serviceAccount struct {
	ProjectID   string `json:"project_id"`
	ClientEmail string `json:"client_email"`
	PrivateKey  string `json:"private_key"`
	TokenURI    string `json:"token_uri"`
}

// NewFCM builds the sender from a service-account key file. Empty
// endpoint, projectID and tokenURL take FCM's endpoint and the file's
// project_id and token_uri (overriding them lets tests, or a proxy, stand
// in for Google).
func NewFCM(credentialsFile, endpoint, projectID, tokenURL string, client *http.Client) (*FCM, error) {
	data, err := os.ReadFile(credentialsFile)
	if err != nil {
		return nil, fmt.Errorf("push.fcm.credentialsFile: %w", err)
	}
	var sa serviceAccount
	if err := json.Unmarshal(data, &sa); err != nil {
		return nil, fmt.Errorf("push.fcm.credentialsFile %s: not a service-account key: %w", credentialsFile, err)
	}
	if sa.ClientEmail == "" || sa.PrivateKey == "" {
		return nil, fmt.Errorf("push.fcm.credentialsFile %s: client_email and private_key are required", credentialsFile)
	}
	if projectID == "" {
		projectID = sa.ProjectID
	}
	if tokenURL == "" {
		tokenURL = sa.TokenURI
	}
	if projectID == "" || tokenURL == "" {
		return nil, errors.New("push.fcm: the project id and token URL are neither configured nor in the key file")
	}
	if endpoint == "" {
		endpoint = FCMEndpoint
	}
	if client == nil {
		client = http.DefaultClient
	}
	cfg := &jwt.Config{Email: sa.ClientEmail, PrivateKey: []byte(sa.PrivateKey), TokenURL: tokenURL, Scopes: []string{fcmScope}}
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, client)
	return &FCM{Endpoint: strings.TrimRight(endpoint, "/"), ProjectID: projectID, Tokens: cfg.TokenSource(ctx), Client: client}, nil
}

type fcmRequest struct {
	Message fcmMessage `json:"message"`
}

type fcmMessage struct {
	Token        string            `json:"token"`
	Notification fcmNotification   `json:"notification"`
	Data         map[string]string `json:"data,omitempty"`
}

type fcmNotification struct {
	Title string `json:"title"`
	Body  string `json:"body"`
}

// fcmError is FCM's error body.
type fcmError struct {
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Status  string `json:"status"`
		Details []struct {
			ErrorCode string `json:"errorCode"`
		} `json:"details"`
	} `json:"error"`
}

// Push sends one message. Errors wrap app.ErrPushTokenInvalid for a dead
// token and app.ErrPushPermanent when retrying cannot help.
func (f *FCM) Push(ctx context.Context, m notify.PushMessage) error {
	body, err := json.Marshal(fcmRequest{Message: fcmMessage{Token: m.Token,
		Notification: fcmNotification{Title: m.Title, Body: m.Body}, Data: m.Data}})
	if err != nil {
		return fmt.Errorf("%w: %v", notify.ErrPushPermanent, err)
	}
	tok, err := f.Tokens.Token()
	if err != nil {
		return fmt.Errorf("fcm: access token: %w", err)
	}
	u := f.Endpoint + "/v1/projects/" + url.PathEscape(f.ProjectID) + "/messages:send"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%w: %v", notify.ErrPushPermanent, err)
	}
	req.Header.Set("Content-Type", "application/json")
	tok.SetAuthHeader(req)
	resp, err := f.Client.Do(req)
	if err != nil {
		return fmt.Errorf("fcm: %w", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 == 2 {
		return nil
	}
	return classifyFCM(resp.StatusCode, raw)
}

// classifyFCM maps an FCM error answer to the core's push errors.
func classifyFCM(status int, raw []byte) error {
	var e fcmError
	_ = json.Unmarshal(raw, &e) // a non-JSON body leaves e empty
	code := e.Error.Status
	for _, d := range e.Error.Details {
		if d.ErrorCode != "" {
			code = d.ErrorCode
		}
	}
	err := fmt.Errorf("fcm answered %d %s: %s", status, code, e.Error.Message)
	switch {
	case code == "UNREGISTERED", code == "SENDER_ID_MISMATCH", status == http.StatusNotFound,
		code == "INVALID_ARGUMENT" && strings.Contains(strings.ToLower(e.Error.Message), "token"):
		return fmt.Errorf("%w: %v", notify.ErrPushTokenInvalid, err)
	case status == http.StatusTooManyRequests, status >= 500:
		return err
	}
	return fmt.Errorf("%w: %v", notify.ErrPushPermanent, err)
}
