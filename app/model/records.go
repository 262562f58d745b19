package model

import (
	"encoding/json"
	"fmt"
)

// RecordTable is the typed Table of an extended entity kind, kept as JSON
// in the store's named RecordSet. what names the kind in messages.
func RecordTable[T any, P interface {
	*T
	Entity
}](tx Tx, name, what string) Table[T] {
	return recordTable[T, P]{set: tx.Records(name), what: what}
}

type recordTable[T any, P interface {
	*T
	Entity
}] struct {
	set  RecordSet
	what string
}

func (t recordTable[T, P]) decode(id int64, data []byte) (*T, error) {
	v := new(T)
	if err := json.Unmarshal(data, v); err != nil {
		return nil, fmt.Errorf("decode %s %d: %w", t.what, id, err)
	}
	P(v).SetID(id) // the key is authoritative
	return v, nil
}

func (t recordTable[T, P]) Get(id int64) (*T, error) {
	data, ok, err := t.set.Get(id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, NotFound(t.what)
	}
	return t.decode(id, data)
}

func (t recordTable[T, P]) List(fn func(*T) bool) error {
	var derr error
	err := t.set.List(false, func(id int64, data []byte) bool {
		v, err := t.decode(id, data)
		if err != nil {
			derr = err
			return false
		}
		return fn(v)
	})
	if err != nil {
		return err
	}
	return derr
}

func (t recordTable[T, P]) Create(v *T) error {
	id, err := t.set.NextID()
	if err != nil {
		return err
	}
	P(v).SetID(id)
	return t.put(v)
}

func (t recordTable[T, P]) Put(v *T) error {
	if _, ok, err := t.set.Get(P(v).GetID()); err != nil {
		return err
	} else if !ok {
		return NotFound(t.what)
	}
	return t.put(v)
}

func (t recordTable[T, P]) put(v *T) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return t.set.Put(P(v).GetID(), data)
}

func (t recordTable[T, P]) Delete(id int64) error {
	ok, err := t.set.Delete(id)
	if err == nil && !ok {
		err = NotFound(t.what)
	}
	return err
}

func (t recordTable[T, P]) Count() (int, error) { return t.set.Count() }
