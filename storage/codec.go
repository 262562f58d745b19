package storage

import "encoding/json"

// Stored records have types of their own (stored<Kind>), encoded as JSON
// with the field names of the file's layout. The kernel's types carry the
// API's JSON; converting between the two here means renaming an API field,
// or a field of the kernel's type, changes nothing on disk, and a change of
// the stored form is a migration.

// storedAs makes spec keep T as its stored type S.
func storedAs[T, S any](spec tableSpec[T], to func(*T) S, from func(*S) T) tableSpec[T] {
	spec.encode = func(v *T) ([]byte, error) { return json.Marshal(to(v)) }
	spec.decode = func(data []byte, v *T) error {
		var s S
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*v = from(&s)
		return nil
	}
	return spec
}
