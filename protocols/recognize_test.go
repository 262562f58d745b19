package protocols_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// bracketProto frames "[...]" with a comma inside. As several real Splits
// do, it skips what is not a frame ("[x]", stray bytes) and cuts the frame
// after it in one call.
type bracketProto struct{}

func (bracketProto) Name() string { return "bracket" }

func (bracketProto) Split(data []byte, atEOF bool) (int, []byte, error) {
	for skip := 0; ; {
		start := bytes.IndexByte(data[skip:], '[')
		if start < 0 {
			return len(data), nil, nil
		}
		start += skip
		end := bytes.IndexByte(data[start:], ']')
		if end < 0 {
			return start, nil, nil
		}
		end += start + 1
		if frame := data[start:end]; bytes.Contains(frame, []byte(",")) {
			return end, frame, nil
		}
		skip = end
	}
}

func (bracketProto) Decode(_ *protocols.Conn, frame []byte) (protocols.Result, error) {
	if bytes.Contains(frame, []byte("0")) {
		return protocols.Result{}, errors.New("no zeros")
	}
	return protocols.Result{UniqueID: "1"}, nil
}

func (bracketProto) CommandTypes() []string { return nil }

func (bracketProto) Encode(*protocols.Conn, *model.Command) ([]byte, error) {
	return nil, model.Invalid("no commands")
}

func TestRecognizeFrame(t *testing.T) {
	tests := []struct {
		head string
		want protocols.Recognition
	}{
		{"[1,2]", protocols.Mine},
		{"[1,2][3,4]", protocols.Mine},
		{"[1,2", protocols.NeedMore},
		{"[12]", protocols.NotMine},   // a frame Decode does not take
		{"[1,2]x", protocols.NotMine}, // followed by bytes that start no frame
		// The frame Split cuts is not the one head starts with: bytes were
		// skipped before it, which the shared port must not take for a sign.
		{"[x][1,2]", protocols.NotMine},
	}
	for _, tt := range tests {
		got := protocols.RecognizeFrame(bracketProto{}, []byte(tt.head), protocols.StartsWith("["))
		if got != tt.want {
			t.Errorf("RecognizeFrame(%q) = %v, want %v", tt.head, got, tt.want)
		}
	}
}
