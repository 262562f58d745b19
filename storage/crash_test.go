package storage

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

const crashStoreEnv = "FLEETD_TEST_CRASH_STORE"

// TestCrashHelper is the process TestKillNineLosesNothing kills: it stores
// positions from several goroutines through the group commit, with the
// compactor moving them (and the old layout's rows) into chunks as fast as
// it can, and prints each position's id once its commit has returned,
// which is when the ingest would acknowledge it.
func TestCrashHelper(t *testing.T) {
	path := os.Getenv(crashStoreEnv)
	if path == "" {
		t.Skip("run by TestKillNineLosesNothing")
	}
	db, err := Open(path, Options{Compaction: Compaction{Every: time.Millisecond, FlushCount: 20}})
	if err != nil {
		t.Fatal(err)
	}
	out := bufio.NewWriter(os.Stdout)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), uint64(time.Now().UnixNano())))
			for i := 0; ; i++ {
				var ids []int64
				err := db.Batch(func(tx model.Tx) error {
					ids = ids[:0]
					for range rng.IntN(5) + 1 {
						p := model.Position{DeviceID: int64(rng.IntN(20) + 1), Protocol: "gt06",
							FixTime:    time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rng.IntN(1e6)) * time.Second),
							Attributes: model.Attributes{"g": float64(g)}}
						if err := tx.AddPosition(&p); err != nil {
							return err
						}
						ids = append(ids, p.ID)
					}
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				for _, id := range ids {
					fmt.Fprintln(out, id)
				}
				out.Flush()
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// TestKillNineLosesNothing kills a process storing positions at random
// moments, while its compactor moves logged positions and migrates the
// old layout's rows into chunks, and checks after each restart that every
// position it acknowledged is there, once, and every old row too.
func TestKillNineLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), "fleetd.db")
	db := openAt(t, path)
	old := map[int64]bool{}
	mustUpdate(t, db, func(mt model.Tx) error {
		t := mt.(*tx)
		for i := range 30000 {
			p := model.Position{DeviceID: int64(i%20 + 1), FixTime: time.Date(2025, 1, 1, 0, 0, i, 0, time.UTC), Protocol: "gt06", Attributes: model.Attributes{"odometer": float64(i)}}
			if _, err := oldPositions.add(t.btx, &p); err != nil {
				return err
			}
			old[p.ID] = true
		}
		// The sequence migration 5 carried on from the old layout.
		return t.btx.Bucket(bucketPositionLog).SetSequence(t.btx.Bucket(bucketPositions).Sequence())
	})
	db.Close()

	acked := map[int64]bool{}
	for round := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$")
		cmd.Env = append(os.Environ(), crashStoreEnv+"="+path)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		read, first := make(chan []int64), make(chan struct{})
		go func() {
			var ids []int64
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				if id, err := strconv.ParseInt(strings.TrimSpace(sc.Text()), 10, 64); err == nil {
					if ids = append(ids, id); len(ids) == 1 {
						close(first)
					}
				}
			}
			read <- ids
		}()
		// The kill comes at a random moment after the first
		// acknowledgement: a fixed delay from the start killed the helper
		// before its first commit on a loaded machine.
		select {
		case <-first:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("round %d: the helper acknowledged nothing in 30 s", round)
		}
		wait := time.Duration(300+rand.IntN(900)) * time.Millisecond
		if round == 0 {
			wait = time.Duration(rand.IntN(60)) * time.Millisecond // while old rows move
		}
		time.Sleep(wait)
		cmd.Process.Kill() // SIGKILL
		ids := <-read
		cmd.Wait()
		for _, id := range ids {
			acked[id] = true
		}

		db := openStill(t, path)
		seen := map[int64]int{}
		mustView(t, db, func(tx model.Tx) error {
			for d := int64(1); d <= 20; d++ {
				if err := tx.Positions(d, time.Time{}, maxKeyTime, func(p *model.Position) bool { seen[p.ID]++; return true }); err != nil {
					return err
				}
			}
			return nil
		})
		logged, chunks, oldRows := bucketLen(t, db, bucketPositionLog), bucketLen(t, db, bucketPositionChunks), bucketLen(t, db, bucketPositions)
		db.Close()
		missing, twice := 0, 0
		for id := range acked {
			if seen[id] == 0 {
				missing++
			}
		}
		for id := range old {
			if seen[id] == 0 {
				missing++
			}
		}
		for _, n := range seen {
			if n > 1 {
				twice++
			}
		}
		t.Logf("round %d: %d acknowledged in all, %d stored (%d logged, %d chunks, %d old rows left)", round, len(acked), len(seen), logged, chunks, oldRows)
		if missing > 0 || twice > 0 {
			t.Fatalf("round %d: %d acknowledged positions missing, %d stored twice", round, missing, twice)
		}
	}
}
