package delivery

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func TestSMSTemplates(t *testing.T) {
	const text = `Code "123456" & more`
	for _, c := range []struct {
		name, ctype, tmpl, want string
	}{
		{"json", "application/json", DefaultSMSTemplate, `{"to":"+4930123","message":"Code \"123456\" \u0026 more"}`},
		{"form", "application/x-www-form-urlencoded", "to={phone}&body={message}",
			"to=%2B4930123&body=" + url.QueryEscape(text)},
		{"plain", "text/plain", "{phone}: {message}", "+4930123: " + text},
	} {
		t.Run(c.name, func(t *testing.T) {
			var body, ctype, auth string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				body, ctype, auth = string(b), r.Header.Get("Content-Type"), r.Header.Get("Authorization")
			}))
			defer srv.Close()
			s := SMS{URL: srv.URL, Authorization: "Basic abc", Template: c.tmpl, ContentType: c.ctype}
			if err := s.Send(context.Background(), "+4930123", "", text); err != nil {
				t.Fatal(err)
			}
			if body != c.want || ctype != c.ctype || auth != "Basic abc" {
				t.Fatalf("body %q (want %q), type %q, auth %q", body, c.want, ctype, auth)
			}
		})
	}
}

func TestSMSGatewayError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no credit", http.StatusPaymentRequired)
	}))
	defer srv.Close()
	err := SMS{URL: srv.URL}.Send(context.Background(), "+4930123", "", "x")
	if err == nil || !strings.Contains(err.Error(), "402") || !strings.Contains(err.Error(), "no credit") {
		t.Fatalf("err = %v", err)
	}
}
