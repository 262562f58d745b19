package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"

	"github.com/fleetd/fleetd/protocols/simulate/bench"
	"golang.org/x/crypto/bcrypt"
)

// TestHelperFleetd is not a test: it runs the test binary as fleetd with
// the arguments after "--", for the commands that start fleetd processes.
func TestHelperFleetd(t *testing.T) {
	if os.Getenv("HELPER_FLEETD") != "1" {
		t.Skip("runs only as a child process")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c := &cli{stdin: strings.NewReader(""), stdout: os.Stdout, stderr: os.Stderr, bcryptCost: bcrypt.MinCost}
	os.Exit(runContext(ctx, flag.Args(), c))
}

// TestBenchIngest runs `fleetd bench ingest` at a tiny scale, so that the
// benchmark of docs/benchmarks.md keeps working: fleetd serve and the null
// server are processes of their own, each measured run acknowledges
// positions, and fleetd stored every one it acknowledged.
func TestBenchIngest(t *testing.T) {
	var out, errOut syncBuffer
	c := &cli{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, benchExe: func(o *bench.Options) {
		o.Exe, o.ExeArgs, o.Env = os.Args[0], []string{"-test.run=^TestHelperFleetd$", "--"}, []string{"HELPER_FLEETD=1"}
	}}
	code := runContext(context.Background(), []string{"bench", "ingest", "--devices", "20", "--runs", "1",
		"--ramp", "200ms", "--settle", "100ms", "--measure", "700ms", "--dir", t.TempDir()}, c)
	t.Logf("%s%s", &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"round 1  fleetd  closed", "round 1  null    closed", "round 1  store   20 writers",
		"open     fleetd  open", "open     null    open", "ratio fleetd/null", "2. null GT06 server", "5. server memory",
		"6. bytes per position"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output lacks %q", want)
		}
	}
	if strings.Contains(out.String(), " 0 positions/s") || strings.Contains(out.String(), "VmRSS 0 MiB") ||
		strings.Contains(out.String(), "errors") {
		t.Errorf("a run without positions or memory, or with errors")
	}
}
