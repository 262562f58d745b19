package storetest

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// record is one entry of a RecordSet, for comparisons.
type record struct {
	ID   int64
	Data string
}

func listRecords(t *testing.T, set model.RecordSet, reverse bool, n int) []record {
	t.Helper()
	var out []record
	err := set.List(reverse, func(id int64, data []byte) bool {
		out = append(out, record{id, string(data)})
		return len(out) < n
	})
	if err != nil {
		t.Errorf("List: %v", err)
	}
	return out
}

func sameRecords(t *testing.T, what string, got, want []record) {
	t.Helper()
	if len(got) != len(want) || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func (s *suite) recordSets(t *testing.T) {
	const name = "storetest_records"
	// setup stores records 1 to 5 ("r1".."r5") from NextID, then deletes 2.
	setup := func(t *testing.T) model.Store {
		st := s.open(t)
		update(t, st, func(tx model.Tx) error {
			set := tx.Records(name)
			for i := 1; i <= 5; i++ {
				id, err := set.NextID()
				if err != nil {
					return err
				}
				if id != int64(i) {
					t.Errorf("NextID = %d, want %d", id, i)
				}
				if err := set.Put(id, []byte(fmt.Sprint("r", i))); err != nil {
					return err
				}
			}
			_, err := set.Delete(2)
			return err
		})
		return st
	}
	stored := []record{{1, "r1"}, {3, "r3"}, {4, "r4"}, {5, "r5"}}

	t.Run("a collection never written finds nothing", func(t *testing.T) {
		st := s.open(t)
		for _, via := range []struct {
			name string
			run  func(func(model.Tx) error) error
		}{{"View", st.View}, {"Update", st.Update}} {
			err := via.run(func(tx model.Tx) error {
				set := tx.Records("storetest_nothing")
				data, ok, err := set.Get(1)
				if ok || err != nil {
					t.Errorf("%s: Get = %q, %v, %v; want nothing", via.name, data, ok, err)
				}
				sameRecords(t, via.name+": List", listRecords(t, set, false, 1<<30), nil)
				sameRecords(t, via.name+": List reversed", listRecords(t, set, true, 1<<30), nil)
				if n, err := set.Count(); n != 0 || err != nil {
					t.Errorf("%s: Count = %d, %v; want 0", via.name, n, err)
				}
				return nil
			})
			if err != nil {
				t.Errorf("%s: %v", via.name, err)
			}
		}
		// Deleting from it deletes nothing, and creates nothing.
		update(t, st, func(tx model.Tx) error {
			ok, err := tx.Records("storetest_nothing").Delete(1)
			if ok || err != nil {
				t.Errorf("Delete = %v, %v; want false", ok, err)
			}
			return nil
		})
		view(t, st, func(tx model.Tx) error {
			if n, err := tx.Records("storetest_nothing").Count(); n != 0 || err != nil {
				t.Errorf("Count after Delete = %d, %v; want 0", n, err)
			}
			return nil
		})
	})
	t.Run("Get returns the bytes Put stored", func(t *testing.T) {
		st := setup(t)
		payloads := [][]byte{[]byte(`{"a":1}`), {0, 1, 2, 255}, bytes.Repeat([]byte("x"), 100_000)}
		update(t, st, func(tx model.Tx) error {
			for i, p := range payloads {
				if err := tx.Records(name).Put(int64(10+i), p); err != nil {
					return err
				}
			}
			return nil
		})
		view(t, st, func(tx model.Tx) error {
			for i, want := range append([][]byte{[]byte("r1"), nil, []byte("r3")}, payloads...) {
				id := int64(i + 1)
				if i >= 3 {
					id = int64(10 + i - 3)
				}
				data, ok, err := tx.Records(name).Get(id)
				switch {
				case err != nil:
					t.Errorf("Get(%d): %v", id, err)
				case want == nil && (ok || data != nil):
					t.Errorf("Get(%d) of a deleted record = %q, %v", id, data, ok)
				case want != nil && (!ok || !bytes.Equal(data, want)):
					t.Errorf("Get(%d) = %d bytes, %v; want %d bytes", id, len(data), ok, len(want))
				}
			}
			return nil
		})
	})
	t.Run("Put overwrites", func(t *testing.T) {
		st := setup(t)
		update(t, st, func(tx model.Tx) error { return tx.Records(name).Put(3, []byte("r3b")) })
		view(t, st, func(tx model.Tx) error {
			sameRecords(t, "List", listRecords(t, tx.Records(name), false, 1<<30), []record{{1, "r1"}, {3, "r3b"}, {4, "r4"}, {5, "r5"}})
			return nil
		})
	})
	t.Run("List is in id order, reversed on request, until fn returns false", func(t *testing.T) {
		st := setup(t)
		view(t, st, func(tx model.Tx) error {
			set := tx.Records(name)
			sameRecords(t, "List", listRecords(t, set, false, 1<<30), stored)
			sameRecords(t, "List reversed", listRecords(t, set, true, 1<<30),
				[]record{{5, "r5"}, {4, "r4"}, {3, "r3"}, {1, "r1"}})
			sameRecords(t, "List stopping after 2", listRecords(t, set, false, 2), stored[:2])
			sameRecords(t, "List reversed stopping after 1", listRecords(t, set, true, 1), []record{{5, "r5"}})
			return nil
		})
	})
	t.Run("ids order numerically", func(t *testing.T) {
		st := s.open(t)
		ids := []int64{256, 1, 1 << 40, 255, 65536, 2}
		update(t, st, func(tx model.Tx) error {
			for _, id := range ids {
				if err := tx.Records(name).Put(id, []byte(fmt.Sprint(id))); err != nil {
					return err
				}
			}
			return nil
		})
		view(t, st, func(tx model.Tx) error {
			want := []record{{1, "1"}, {2, "2"}, {255, "255"}, {256, "256"}, {65536, "65536"}, {1 << 40, "1099511627776"}}
			sameRecords(t, "List", listRecords(t, tx.Records(name), false, 1<<30), want)
			return nil
		})
	})
	t.Run("Count", func(t *testing.T) {
		st := setup(t)
		view(t, st, func(tx model.Tx) error {
			if n, err := tx.Records(name).Count(); n != 4 || err != nil {
				t.Errorf("Count = %d, %v; want 4", n, err)
			}
			return nil
		})
	})
	t.Run("Delete says whether there was a record", func(t *testing.T) {
		st := setup(t)
		update(t, st, func(tx model.Tx) error {
			for _, c := range []struct {
				id int64
				ok bool
			}{{3, true}, {3, false}, {2, false}, {99, false}, {0, false}} {
				ok, err := tx.Records(name).Delete(c.id)
				if ok != c.ok || err != nil {
					t.Errorf("Delete(%d) = %v, %v; want %v", c.id, ok, err, c.ok)
				}
			}
			sameRecords(t, "List in the deleting transaction", listRecords(t, tx.Records(name), false, 1<<30),
				[]record{{1, "r1"}, {4, "r4"}, {5, "r5"}})
			return nil
		})
		view(t, st, func(tx model.Tx) error {
			sameRecords(t, "List", listRecords(t, tx.Records(name), false, 1<<30), []record{{1, "r1"}, {4, "r4"}, {5, "r5"}})
			return nil
		})
	})
	t.Run("NextID never gives an id twice, even after Delete", func(t *testing.T) {
		st := setup(t)
		update(t, st, func(tx model.Tx) error {
			for _, id := range []int64{5, 4} {
				if _, err := tx.Records(name).Delete(id); err != nil {
					return err
				}
			}
			return nil
		})
		for _, want := range []int64{6, 7} {
			update(t, st, func(tx model.Tx) error {
				id, err := tx.Records(name).NextID()
				if id != want || err != nil {
					t.Errorf("NextID = %d, %v; want %d", id, err, want)
				}
				return err
			})
		}
	})
	t.Run("each collection is separate, with its own sequence", func(t *testing.T) {
		st := setup(t)
		update(t, st, func(tx model.Tx) error {
			other := tx.Records(name + "_other")
			id, err := other.NextID()
			if id != 1 || err != nil {
				t.Errorf("NextID of another collection = %d, %v; want 1", id, err)
			}
			return firstErr(err, other.Put(1, []byte("other")), tx.Keys(name).Put("k", 9))
		})
		view(t, st, func(tx model.Tx) error {
			sameRecords(t, "first collection", listRecords(t, tx.Records(name), false, 1<<30), stored)
			sameRecords(t, "second collection", listRecords(t, tx.Records(name+"_other"), false, 1<<30), []record{{1, "other"}})
			sameRecords(t, "a collection named as a prefix", listRecords(t, tx.Records("storetest_rec"), false, 1<<30), nil)
			return nil
		})
	})
}

func scanKeys(t *testing.T, ks model.KeySet, prefix string, n int) []string {
	t.Helper()
	var out []string
	err := ks.Scan(prefix, func(key string, id int64) bool {
		out = append(out, fmt.Sprintf("%s=%d", key, id))
		return len(out) < n
	})
	if err != nil {
		t.Errorf("Scan(%q): %v", prefix, err)
	}
	return out
}

func (s *suite) keySets(t *testing.T) {
	const name = "storetest_keys"
	// Keys in byte order: upper case sorts before lower case, a prefix
	// before its extensions, "/" (0x2f) before letters, UTF-8 after ASCII.
	keys := []struct {
		key string
		id  int64
	}{
		{"A", 1}, {"a", 2}, {"a%b", 3}, {"a/b", 4}, {"a_c", 5}, {"ab", 6}, {"abc", 7}, {"b", 8}, {"z", 9}, {"é", 10},
		{"big", 1 << 40},
	}
	setup := func(t *testing.T) model.Store {
		st := s.open(t)
		update(t, st, func(tx model.Tx) error {
			// Stored out of order.
			for i := len(keys) - 1; i >= 0; i-- {
				if err := tx.Keys(name).Put(keys[i].key, keys[i].id); err != nil {
					return err
				}
			}
			return nil
		})
		return st
	}
	t.Run("a set never written finds nothing", func(t *testing.T) {
		st := s.open(t)
		for _, via := range []struct {
			name string
			run  func(func(model.Tx) error) error
		}{{"View", st.View}, {"Update", st.Update}} {
			err := via.run(func(tx model.Tx) error {
				ks := tx.Keys("storetest_nothing")
				if id, ok, err := ks.Get("a"); id != 0 || ok || err != nil {
					t.Errorf("%s: Get = %d, %v, %v; want nothing", via.name, id, ok, err)
				}
				sameStrings(t, via.name+": Scan", scanKeys(t, ks, "", 1<<30), nil)
				return nil
			})
			if err != nil {
				t.Errorf("%s: %v", via.name, err)
			}
		}
	})
	t.Run("Get finds the id Put stored, exactly by key", func(t *testing.T) {
		st := setup(t)
		view(t, st, func(tx model.Tx) error {
			ks := tx.Keys(name)
			for _, k := range keys {
				if id, ok, err := ks.Get(k.key); id != k.id || !ok || err != nil {
					t.Errorf("Get(%q) = %d, %v, %v; want %d", k.key, id, ok, err, k.id)
				}
			}
			for _, missing := range []string{"B", "a ", " a", "abcd", "e", "", "a/"} {
				if _, ok, err := ks.Get(missing); ok || err != nil {
					t.Errorf("Get(%q) = %v, %v; want not found", missing, ok, err)
				}
			}
			return nil
		})
	})
	t.Run("Put overwrites and Delete removes", func(t *testing.T) {
		st := setup(t)
		update(t, st, func(tx model.Tx) error {
			ks := tx.Keys(name)
			if err := firstErr(ks.Put("a", 20), ks.Delete("ab"), ks.Delete("no-such-key")); err != nil {
				return err
			}
			if id, ok, _ := ks.Get("a"); id != 20 || !ok {
				t.Errorf("Get after Put in the same transaction = %d, %v; want 20", id, ok)
			}
			if _, ok, _ := ks.Get("ab"); ok {
				t.Error("Get after Delete in the same transaction found the key")
			}
			return nil
		})
		view(t, st, func(tx model.Tx) error {
			sameStrings(t, "Scan(a)", scanKeys(t, tx.Keys(name), "a", 1<<30),
				[]string{"a=20", "a%b=3", "a/b=4", "a_c=5", "abc=7"})
			return nil
		})
	})
	for _, c := range []struct {
		prefix string
		n      int
		want   []string
	}{
		{"", 1 << 30, []string{"A=1", "a=2", "a%b=3", "a/b=4", "a_c=5", "ab=6", "abc=7", "b=8", "big=1099511627776", "z=9", "é=10"}},
		{"a", 1 << 30, []string{"a=2", "a%b=3", "a/b=4", "a_c=5", "ab=6", "abc=7"}},
		{"ab", 1 << 30, []string{"ab=6", "abc=7"}},
		{"a_", 1 << 30, []string{"a_c=5"}},
		{"a%", 1 << 30, []string{"a%b=3"}},
		{"a/", 1 << 30, []string{"a/b=4"}},
		{"abc", 1 << 30, []string{"abc=7"}},
		{"abcd", 1 << 30, nil},
		{"B", 1 << 30, nil},
		{"é", 1 << 30, []string{"é=10"}},
		{"a", 2, []string{"a=2", "a%b=3"}},
		{"", 1, []string{"A=1"}},
	} {
		t.Run(fmt.Sprintf("Scan(%q) is in key order, stopping after %d", c.prefix, c.n), func(t *testing.T) {
			st := setup(t)
			view(t, st, func(tx model.Tx) error {
				sameStrings(t, fmt.Sprintf("Scan(%q)", c.prefix), scanKeys(t, tx.Keys(name), c.prefix, c.n), c.want)
				return nil
			})
		})
	}
	t.Run("each set is separate", func(t *testing.T) {
		st := setup(t)
		update(t, st, func(tx model.Tx) error {
			return firstErr(tx.Keys(name+"_other").Put("a", 99), tx.Records(name).Put(1, []byte("x")))
		})
		view(t, st, func(tx model.Tx) error {
			sameStrings(t, "other set", scanKeys(t, tx.Keys(name+"_other"), "", 1<<30), []string{"a=99"})
			if id, _, _ := tx.Keys(name).Get("a"); id != 2 {
				t.Errorf("first set's a = %d, want 2", id)
			}
			sameStrings(t, "a set named as a prefix", scanKeys(t, tx.Keys("storetest_k"), "", 1<<30), nil)
			return nil
		})
	})
}
