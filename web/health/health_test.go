package health

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	for in, want := range map[string]string{
		":8082":          "http://127.0.0.1:8082/api/health",
		"0.0.0.0:9000":   "http://127.0.0.1:9000/api/health",
		"[::]:9000":      "http://127.0.0.1:9000/api/health",
		"10.0.0.5:8082":  "http://10.0.0.5:8082/api/health",
		"[::1]:8082":     "http://[::1]:8082/api/health",
		"localhost:8082": "http://localhost:8082/api/health",
		"garbage":        "http://127.0.0.1:8082/api/health",
	} {
		if got := URL(in, false); got != want {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
	if got := URL(":443", true); got != "https://127.0.0.1:443/api/health" {
		t.Errorf("URL with HTTPS = %q", got)
	}
}

// Check passes on 200 only, also from a server whose certificate does not
// name the address asked.
func TestCheck(t *testing.T) {
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/health" {
			http.NotFound(w, r)
		}
	})
	plain := httptest.NewServer(handler)
	defer plain.Close()
	tls := httptest.NewTLSServer(handler)
	defer tls.Close()
	ctx := context.Background()
	for _, base := range []string{plain.URL, tls.URL} {
		if err := Check(ctx, base+"/api/health"); err != nil {
			t.Errorf("%s: %v", base, err)
		}
	}
	if err := Check(ctx, plain.URL+"/nothing-here"); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("a wrong URL: %v, want a 404 error", err)
	}
	plain.Close()
	if err := Check(ctx, plain.URL+"/api/health"); err == nil {
		t.Error("no error from a stopped server")
	}
}
