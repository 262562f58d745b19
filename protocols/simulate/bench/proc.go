package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// child is a server process of a run: fleetd serve or the null server.
type child struct {
	cmd  *exec.Cmd
	addr string // its GT06 listener
	mu   sync.Mutex
	tail []string // its last output lines, for errors
	done chan struct{}
}

// start runs the fleetd executable with args and waits for ready to find
// the GT06 address in a line of its output (stderr for serve, stdout for
// the null server; both are read).
func (o *Options) start(ready func(line string) (addr string, ok bool), args ...string) (*child, error) {
	cmd := exec.Command(o.Exe, append(append([]string(nil), o.ExeArgs...), args...)...)
	cmd.Env = append(os.Environ(), o.Env...)
	r, w := io.Pipe()
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &child{cmd: cmd, done: make(chan struct{})}
	found := make(chan string, 1)
	go func() {
		defer close(c.done)
		lines := bufio.NewScanner(r)
		lines.Buffer(make([]byte, 64<<10), 1<<20)
		for lines.Scan() {
			line := lines.Text()
			c.mu.Lock()
			c.tail = append(c.tail, line)
			if len(c.tail) > 20 {
				c.tail = c.tail[1:]
			}
			c.mu.Unlock()
			if addr, ok := ready(line); ok {
				select {
				case found <- addr:
				default:
				}
			}
		}
	}()
	go func() {
		cmd.Wait()
		w.Close()
	}()
	select {
	case c.addr = <-found:
		return c, nil
	case <-c.done:
		return nil, fmt.Errorf("%s exited before listening:\n%s", strings.Join(args, " "), c.output())
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		return nil, fmt.Errorf("%s did not start in 2 minutes:\n%s", strings.Join(args, " "), c.output())
	}
}

func (c *child) output() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.tail, "\n")
}

// stop ends the process with SIGTERM (serve then finishes what it
// acknowledged and closes the store), or kills it after a minute.
func (c *child) stop() error {
	c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.done:
	case <-time.After(time.Minute):
		c.cmd.Process.Kill()
		<-c.done
		return fmt.Errorf("killed: no exit a minute after SIGTERM:\n%s", c.output())
	}
	if st := c.cmd.ProcessState; st != nil && !st.Success() {
		if ws, ok := st.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
			return fmt.Errorf("%s:\n%s", st, c.output())
		}
	}
	return nil
}

// memory is a process's resident memory (bytes): now, its peak, and the
// anonymous (heap, stacks) and file-backed (the store's mmap) parts of now.
type memory struct{ rss, hwm, anon, file int64 }

// readMemory reads VmRSS and VmHWM from /proc/pid/status.
func readMemory(pid int) (memory, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return memory{}, err
	}
	var m memory
	for line := range bytes.Lines(b) {
		name, value, ok := strings.Cut(string(line), ":")
		if !ok || name != "VmRSS" && name != "VmHWM" && name != "RssAnon" && name != "RssFile" {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		if err != nil {
			return memory{}, fmt.Errorf("%s: %q", name, value)
		}
		switch name {
		case "VmRSS":
			m.rss = kb << 10
		case "VmHWM":
			m.hwm = kb << 10
		case "RssAnon":
			m.anon = kb << 10
		case "RssFile":
			m.file = kb << 10
		}
	}
	if m.rss == 0 {
		return m, errors.New("no VmRSS in /proc/pid/status")
	}
	return m, nil
}

// serveReady finds the GT06 listener in serve's "fleetd started" log line
// (log.format json).
func serveReady(line string) (string, bool) {
	var l struct{ Msg, Devices string }
	if json.Unmarshal([]byte(line), &l) != nil || l.Msg != "fleetd started" {
		return "", false
	}
	for _, listener := range strings.Fields(l.Devices) {
		if addr, ok := strings.CutPrefix(listener, "gt06="); ok {
			return addr, true
		}
	}
	return "", false
}

// NullReadyPrefix starts the line the null server prints once listening,
// followed by its address.
const NullReadyPrefix = "null gt06 server listening on "

func nullReady(line string) (string, bool) {
	addr, ok := strings.CutPrefix(line, NullReadyPrefix)
	return strings.TrimSpace(addr), ok
}

// cpuTime is the CPU time a process has used, user and system, from
// /proc/pid/stat ("self" for this process); Linux counts it in 1/100 s.
func cpuTime(pid string) (time.Duration, error) {
	b, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces; the fields after it don't.
	_, after, ok := bytes.Cut(b, []byte(") "))
	f := strings.Fields(string(after))
	if !ok || len(f) < 13 {
		return 0, fmt.Errorf("/proc/%s/stat: %q", pid, b)
	}
	var ticks int64
	for _, v := range f[11:13] { // utime, stime: fields 14 and 15
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, err
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond, nil
}
