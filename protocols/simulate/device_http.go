package simulate

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// httpDevice is a phone running the Traccar Client: one POST per fix, the
// 200 answer is the ACK (the server sends it once the position is stored).
type httpDevice struct {
	deviceBase
	url string
	up  bool // last request succeeded
}

func newHTTPClient(devices int, timeout time.Duration) *http.Client {
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			DialContext:         (&net.Dialer{Timeout: timeout}).DialContext,
			MaxIdleConns:        devices,
			MaxIdleConnsPerHost: devices, // one kept-alive connection per phone
			IdleConnTimeout:     90 * time.Second,
		},
	}
}

func (d *httpDevice) loop(ctx context.Context) {
	defer func() {
		if d.up {
			d.r.stats.atEnd.Add(1)
		}
		d.setUp(false)
	}()
	if !sleep(ctx, d.startDelay()) {
		return
	}
	b := backoff{min: d.r.tm.backoffMin, max: d.r.tm.backoff}
	next := time.Now()
	for {
		wait := d.interval()
		next = next.Add(wait)
		if !sleep(ctx, time.Until(next)) {
			return
		}
		err := d.send(ctx, d.fix(wait))
		d.setUp(err == nil)
		if err == nil {
			b.reset()
			continue
		}
		if !d.retry(ctx, &b, err) {
			return
		}
		next = time.Now()
	}
}

// setUp keeps the connected gauge: a phone counts while its requests succeed.
func (d *httpDevice) setUp(up bool) {
	if up != d.up {
		d.up = up
		if up {
			d.r.stats.connected.Add(1)
		} else {
			d.r.stats.connected.Add(-1)
		}
	}
}

func (d *httpDevice) send(ctx context.Context, f Fix) error {
	// A request under way when the run ends may finish within the drain
	// time: its answer says whether the position was stored.
	reqCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	stop := context.AfterFunc(ctx, func() { time.AfterFunc(d.r.tm.drain, cancel) })
	defer stop()

	req, err := http.NewRequestWithContext(reqCtx, http.MethodPost, d.url+"?"+osmandQuery(d.id, f).Encode(), nil)
	if err != nil {
		return err
	}
	d.r.stats.sent.Add(1)
	start := time.Now()
	resp, err := d.r.http.Do(req)
	if err != nil {
		d.r.stats.unacked.Add(1)
		return err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxReply)) // lets the connection be reused
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		d.r.stats.unacked.Add(1)
		if resp.StatusCode == http.StatusNotFound {
			return fmt.Errorf("server answered %s (is the device registered?)", resp.Status)
		}
		return fmt.Errorf("server answered %s", resp.Status)
	}
	d.r.lat.record(time.Since(start))
	d.r.stats.acked.Add(1)
	return nil
}
