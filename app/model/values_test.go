package model

import (
	"encoding/json"
	"testing"
)

func TestTextIDJSON(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    TextID
		wantErr bool
	}{
		{`"12"`, 12, false}, {`12`, 12, false}, {`""`, 0, false}, {`null`, 0, false},
		{`"abc"`, 0, true}, {`"-3"`, 0, true}, {`1.5`, 0, true}, {`"99999999999999999999"`, 0, true},
	} {
		var got TextID
		err := json.Unmarshal([]byte(c.in), &got)
		if (err != nil) != c.wantErr || got != c.want {
			t.Errorf("%s: %d, %v", c.in, got, err)
		}
	}
	out, _ := json.Marshal(struct{ A, B TextID }{7, 0})
	if string(out) != `{"A":"7","B":null}` {
		t.Errorf("marshal %s", out)
	}
}

func TestDateJSON(t *testing.T) {
	for _, c := range []struct {
		in, want string // want: the value written back
		wantErr  bool
	}{
		{`"2025-03-01"`, `"2025-03-01T00:00:00Z"`, false},
		{`"2025-03-01T10:00:00+02:00"`, `"2025-03-01T08:00:00Z"`, false},
		{`"2025-03-01T10:00:00.123Z"`, `"2025-03-01T10:00:00Z"`, false},
		{`"2025-03-01T10:00:00+0200"`, `"2025-03-01T08:00:00Z"`, false},
		{`"2025-03-01T10:00:00"`, `"2025-03-01T10:00:00Z"`, false},
		{`""`, `null`, false}, {`null`, `null`, false},
		{`"01/03/2025"`, ``, true}, {`20250301`, ``, true}, {`"2025-02-30"`, ``, true},
	} {
		var d Date
		err := json.Unmarshal([]byte(c.in), &d)
		if (err != nil) != c.wantErr {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if out, _ := json.Marshal(d); err == nil && string(out) != c.want {
			t.Errorf("%s: written back as %s, want %s", c.in, out, c.want)
		}
	}
}
