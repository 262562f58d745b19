package prototest

import (
	"bufio"
	"bytes"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

func TestSplitDecode(t *testing.T) {
	var frames [][]byte
	expectFailures(t, false, func(tb testing.TB) { frames = SplitDecode(tb, lineStream{}, []byte("id:7\n1,2\nx\n3,4")) })
	// The partial pass stops before the unterminated line; the EOF pass cuts it.
	if want := []string{"id:7", "1,2", "x", "id:7", "1,2", "x", "3,4"}; !slices.Equal(Strings(frames), want) {
		t.Errorf("frames %q, want %q", Strings(frames), want)
	}
	tests := []struct {
		name   string
		stream lineStream
		data   string
	}{
		{"no progress at EOF", lineStream{split: func(data []byte, atEOF bool) (int, []byte, error) {
			return 0, nil, nil
		}}, "abc"},
		{"token without advance", lineStream{split: func(data []byte, atEOF bool) (int, []byte, error) {
			return 0, []byte{}, nil
		}}, "abc"},
		{"advance beyond the data", lineStream{split: func(data []byte, atEOF bool) (int, []byte, error) {
			return len(data) + 1, nil, nil
		}}, "abc"},
		{"token longer than the advance", lineStream{split: func(data []byte, atEOF bool) (int, []byte, error) {
			return 1, data, nil
		}}, "abc"},
		{"latitude off the globe", lineStream{}, "91,0\n"},
		{"unsplit input off the globe", lineStream{split: func(data []byte, atEOF bool) (int, []byte, error) {
			return len(data), nil, nil // skips everything: only the unsplit decode sees a frame
		}}, "91,0"},
		{"NaN speed does not marshal", lineStream{}, "1,2,NaN\n"},
		{"encode fails unexpectedly", lineStream{encodeErr: errors.New("boom")}, "1,2\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expectFailures(t, true, func(tb testing.TB) { SplitDecode(tb, tt.stream, []byte(tt.data)) })
		})
	}
	// Invalid commands are fine; so is a split error, which ends the stream.
	expectFailures(t, false, func(tb testing.TB) {
		SplitDecode(tb, lineStream{encodeErr: model.Invalid("no")}, []byte("1,2\n"))
		SplitDecode(tb, lineStream{split: bangLines}, []byte("1,2\n!\n"))
	})
}

func TestStorable(t *testing.T) {
	good := func() *model.Position {
		return &model.Position{Protocol: "line", Latitude: -90, Longitude: 180, Attributes: model.Attributes{}}
	}
	tests := []struct {
		name   string
		change func(p *model.Position) *model.Position
		fail   bool
	}{
		{"storable", func(p *model.Position) *model.Position { return p }, false},
		{"nil", func(*model.Position) *model.Position { return nil }, true},
		{"protocol", func(p *model.Position) *model.Position { p.Protocol = "gt06"; return p }, true},
		{"no attributes", func(p *model.Position) *model.Position { p.Attributes = nil; return p }, true},
		{"latitude", func(p *model.Position) *model.Position { p.Latitude = -90.5; return p }, true},
		{"longitude NaN", func(p *model.Position) *model.Position { p.Longitude = math.NaN(); return p }, true},
		{"infinite course", func(p *model.Position) *model.Position { p.Course = math.Inf(1); return p }, true},
		{"attribute NaN", func(p *model.Position) *model.Position { p.Attributes["x"] = math.NaN(); return p }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := protocols.Result{Positions: []*model.Position{good(), tt.change(good())}}
			expectFailures(t, tt.fail, func(tb testing.TB) { Storable(tb, "line", res, nil) })
		})
	}
}

// recognizingLines says Mine for any head with a whole first line, right
// or not, and refuses lines longer than 8 bytes, so Recognized can be
// shown to catch both broken promises.
type recognizingLines struct{ lineStream }

func (recognizingLines) Recognize(head []byte) protocols.Recognition {
	if bytes.IndexByte(head, '\n') < 0 {
		return protocols.NeedMore
	}
	return protocols.Mine
}

func (recognizingLines) Split(data []byte, atEOF bool) (int, []byte, error) {
	adv, tok, err := bufio.ScanLines(data, atEOF)
	if len(tok) > 8 || adv == 0 && len(data) > 8 {
		return 0, nil, errors.New("line too long")
	}
	return adv, tok, err
}

func TestRecognized(t *testing.T) {
	tests := []struct {
		name       string
		head       string
		fail, mine bool
	}{
		{"a frame that decodes", "1,2\n", false, true},
		{"not recognised", "1,2", false, false},
		{"recognised but longer than Split takes", "1.000000,2\n", true, true},
		{"recognised but not decoded", "x\n", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mine bool
			expectFailures(t, tt.fail, func(tb testing.TB) { _, mine = Recognized(tb, recognizingLines{}, []byte(tt.head)) })
			if !tt.fail && mine != tt.mine {
				t.Errorf("mine = %v, want %v", mine, tt.mine)
			}
		})
	}
	// A protocol that recognises nothing passes.
	expectFailures(t, false, func(tb testing.TB) { Recognized(tb, lineStream{}, []byte("x\n")) })
}
