package watch

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// jxtkChunks reads testdata/jxtk.hex: a ZJ watch's voice message in six
// JXTK chunks, sent back to back (Traccar's test capture).
func jxtkChunks(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/jxtk.hex")
	if err != nil {
		t.Fatal(err)
	}
	return prototest.Unhex(t, strings.TrimSpace(string(b)))
}

// jxtkHeader is what precedes the audio in the content of chunk n of 6.
func jxtkHeader(n int) string { return fmt.Sprintf("JXTK,0,watch_7_20220526093954,%d,6,", n) }

// TestVoiceChunks decodes the six chunks on one connection: each of the
// first five is answered at once with JXTKR,1 (repeating the frame's index
// field), the sixth yields the message (name, total audio bytes) and is
// answered once it is stored.
func TestVoiceChunks(t *testing.T) {
	frames, err := prototest.ScanFrames(New().Split, bytes.NewReader(jxtkChunks(t)), MaxFrameSize)
	if err != nil || len(frames) != 6 {
		t.Fatalf("got %d frames, %v", len(frames), err)
	}
	audio := 0
	p, conn := testProtocol(), &protocols.Conn{}
	for i, f := range frames {
		// This watch declares the length of the content as sent, escape
		// pairs counted twice; unescaped, each chunk but the last holds
		// 1024 bytes of audio.
		h, _ := parseHeader(f)
		content := unescape(f[h.size : len(f)-1])
		if h.length != len(f)-h.size-1 || !bytes.HasPrefix(content, []byte(jxtkHeader(i+1))) ||
			i < 5 && len(content)-len(jxtkHeader(i+1)) != 1024 {
			t.Fatalf("chunk %d: length %d, %d bytes sent, %d unescaped, want to start %q",
				i+1, h.length, len(f)-h.size-1, len(content), jxtkHeader(i+1))
		}
		audio += len(content) - len(jxtkHeader(i+1))
		res, err := p.Decode(conn, f)
		if err != nil {
			t.Fatalf("chunk %d: %v", i+1, err)
		}
		answer := fmt.Sprintf("[ZJ*789468050042692*%04X*0007*JXTKR,1]", 0x34+i)
		want := prototest.Result{UniqueID: "789468050042692", Reply: answer}
		if i == 5 {
			want = prototest.Result{UniqueID: "789468050042692", Ack: answer, Positions: []prototest.Position{{
				Time: now, Outdated: true, Attributes: model.Attributes{"audioName": "watch_7_20220526093954", "audioSize": audio},
			}}}
		}
		check.Result(t, res, want)
	}
	if audio != 5*1024+192 {
		t.Errorf("audio bytes = %d, want %d", audio, 5*1024+192)
	}
}

// TestVoiceChunkResent: a chunk sent again (its answer was lost) is counted
// once; a connection that saw only the last chunks counts those.
func TestVoiceChunkResent(t *testing.T) {
	chunk := func(n int, audio string) string {
		content := jxtkHeader(n) + audio
		return string(frame("ZJ", "789468050042692", "0034", content))
	}
	cases := []struct {
		name   string
		frames []string
		size   int
	}{
		{"chunk 2 resent", []string{chunk(1, "#!AMR\n"), chunk(2, "abcd"), chunk(2, "abcd"), chunk(3, "ef"), chunk(4, "g"), chunk(5, "h"), chunk(6, "ij")}, 16},
		{"last chunk resent", []string{chunk(1, "#!AMR\n"), chunk(2, "abcd"), chunk(3, "ef"), chunk(4, "g"), chunk(5, "h"), chunk(6, "ij"), chunk(6, "ij")}, 16},
		{"first chunks on another connection", []string{chunk(5, "h"), chunk(6, "ij")}, 3},
		{"a new message restarts the count", []string{chunk(1, "#!AMR\n"), chunk(2, "abcd"), chunk(1, "#!AMR\n"), chunk(2, "ab"), chunk(3, "ef"), chunk(4, "g"), chunk(5, "h"), chunk(6, "ij")}, 14},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, conn := testProtocol(), &protocols.Conn{}
			var res protocols.Result
			for _, f := range tc.frames {
				var err error
				if res, err = p.Decode(conn, []byte(f)); err != nil {
					t.Fatal(err)
				}
			}
			check.Result(t, res, prototest.Result{UniqueID: "789468050042692", Ack: "[ZJ*789468050042692*0034*0007*JXTKR,1]",
				Positions: []prototest.Position{{Time: now, Outdated: true,
					Attributes: model.Attributes{"audioName": "watch_7_20220526093954", "audioSize": tc.size}}}})
		})
	}
}
