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
// field), the sixth yields the message (name, size, the audio of all six
// as its file) and is answered once it is stored.
func TestVoiceChunks(t *testing.T) {
	frames, err := prototest.ScanFrames(New().Split, bytes.NewReader(jxtkChunks(t)), MaxFrameSize)
	if err != nil || len(frames) != 6 {
		t.Fatalf("got %d frames, %v", len(frames), err)
	}
	var audio []byte
	p, conn := testProtocol(), &protocols.Conn{UniqueID: "789468050042692"} // the listener has identified the watch
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
		audio = append(audio, content[len(jxtkHeader(i+1)):]...)
		res, err := p.Decode(conn, f)
		if err != nil {
			t.Fatalf("chunk %d: %v", i+1, err)
		}
		answer := fmt.Sprintf("[ZJ*789468050042692*%04X*0007*JXTKR,1]", 0x34+i)
		want := prototest.Result{UniqueID: "789468050042692", Reply: answer}
		if i == 5 {
			want = prototest.Result{UniqueID: "789468050042692", Ack: answer, Positions: []prototest.Position{{
				Time: now, Outdated: true, Attributes: model.Attributes{"audioName": "watch_7_20220526093954", "audioSize": len(audio)},
			}}}
		}
		check.Result(t, res, want)
		if i == 5 {
			checkMedia(t, res, &model.Media{Key: "audio", Ext: "amr", Type: "audio/amr", Data: audio})
		}
	}
	if len(audio) != 5*1024+192 || !bytes.HasPrefix(audio, []byte("#!AMR\n")) {
		t.Errorf("audio: %d bytes starting %q, want %d bytes of AMR", len(audio), audio[:min(len(audio), 6)], 5*1024+192)
	}
}

// TestVoiceChunkResent: a chunk sent again (its answer was lost) is kept
// once; a connection that saw only the last chunks counts those, but has
// no whole message to keep.
func TestVoiceChunkResent(t *testing.T) {
	chunk := func(n int, audio string) string {
		content := jxtkHeader(n) + audio
		return string(frame("ZJ", "789468050042692", "0034", content))
	}
	cases := []struct {
		name   string
		frames []string
		audio  string
		whole  bool
	}{
		{"chunk 2 resent", []string{chunk(1, "#!AMR\n"), chunk(2, "abcd"), chunk(2, "abcd"), chunk(3, "ef"), chunk(4, "g"), chunk(5, "h"), chunk(6, "ij")}, "#!AMR\nabcdefghij", true},
		{"last chunk resent", []string{chunk(1, "#!AMR\n"), chunk(2, "abcd"), chunk(3, "ef"), chunk(4, "g"), chunk(5, "h"), chunk(6, "ij"), chunk(6, "ij")}, "#!AMR\nabcdefghij", true},
		{"first chunks on another connection", []string{chunk(5, "h"), chunk(6, "ij")}, "hij", false},
		{"a new message starts again", []string{chunk(1, "#!AMR\n"), chunk(2, "abcd"), chunk(1, "#!AMR\n"), chunk(2, "ab"), chunk(3, "ef"), chunk(4, "g"), chunk(5, "h"), chunk(6, "ij")}, "#!AMR\nabefghij", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, conn := testProtocol(), &protocols.Conn{UniqueID: "789468050042692"}
			var res protocols.Result
			for _, f := range tc.frames {
				var err error
				if res, err = p.Decode(conn, []byte(f)); err != nil {
					t.Fatal(err)
				}
			}
			check.Result(t, res, prototest.Result{UniqueID: "789468050042692", Ack: "[ZJ*789468050042692*0034*0007*JXTKR,1]",
				Positions: []prototest.Position{{Time: now, Outdated: true,
					Attributes: model.Attributes{"audioName": "watch_7_20220526093954", "audioSize": len(tc.audio)}}}})
			var want *model.Media
			if tc.whole {
				want = &model.Media{Key: "audio", Ext: "amr", Type: "audio/amr", Data: []byte(tc.audio)}
			}
			checkMedia(t, res, want)
		})
	}
}

// TestVoiceKeptOnlyWhole: a message over maxVoice, or on a connection the
// listener has not identified (whose device may be nobody's), is kept
// without its audio; the connection holds none of it, and the next
// message is whole again. What a connection holds goes with it.
func TestVoiceKeptOnlyWhole(t *testing.T) {
	held := protocols.MediaHeld()
	decode := func(conn *protocols.Conn, n, total int, audio string) protocols.Result {
		t.Helper()
		content := fmt.Sprintf("JXTK,0,m,%d,%d,%s", n, total, audio)
		res, err := testProtocol().Decode(conn, frame("ZJ", "789468050042692", "0034", content))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	conn := &protocols.Conn{UniqueID: "789468050042692"}
	chunk := strings.Repeat("a", 1000)
	chunks := maxVoice/len(chunk) + 2
	var res protocols.Result
	for n := 1; n <= chunks; n++ {
		res = decode(conn, n, chunks, chunk)
	}
	checkMedia(t, res, nil)
	if len(res.Positions) != 1 || res.Positions[0].Attributes["audioSize"] != chunks*len(chunk) {
		t.Fatalf("the long message: %+v", res.Positions)
	}
	if got := protocols.MediaHeld() - held; got != 0 {
		t.Errorf("the connection holds %d bytes of a message it dropped", got)
	}
	decode(conn, 1, 2, "#!AMR\n")
	if got := protocols.MediaHeld() - held; got != 6 {
		t.Errorf("a chunk on its way holds %d bytes, want 6", got)
	}
	checkMedia(t, decode(conn, 2, 2, "b"), &model.Media{Key: "audio", Ext: "amr", Type: "audio/amr", Data: []byte("#!AMR\nb")})
	conn.Release()
	if got := protocols.MediaHeld() - held; got != 0 {
		t.Errorf("a closed connection holds %d bytes", got)
	}

	stranger := &protocols.Conn{}
	decode(stranger, 1, 2, "#!AMR\n")
	checkMedia(t, decode(stranger, 2, 2, "b"), nil)
	if got := protocols.MediaHeld() - held; got != 0 {
		t.Errorf("an unidentified connection holds %d bytes", got)
	}
}
