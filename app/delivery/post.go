package delivery

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// post sends body to url (with an Authorization header when auth is set);
// any answer but 2xx is an error naming what (the service) and what it
// said.
func post(ctx context.Context, client *http.Client, what, url, ctype, auth string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(string(body)))
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	req.Header.Set("Content-Type", ctype)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer resp.Body.Close()
	detail, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s answered %s: %s", what, resp.Status, strings.TrimSpace(string(detail)))
	}
	return nil
}
