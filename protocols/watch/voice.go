package watch

import (
	"bytes"
	"errors"
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Voice messages: the watch records up to about 15 seconds of AMR audio and
// sends it escaped in one TK frame, or (ZJ watches) as numbered JXTK chunks
// "JXTK,0,<name>,<chunk>,<chunks>,<audio>". It repeats a voice message, or a
// chunk, until it is answered ("TK,1", "JXTKR,1").
//
// A voice message is kept as a position without a location (the ingest
// gives it the last known one) with the audio as its file: the ingest
// names it in the "audio" attribute, as Traccar does, for the media API.
// audioSize tells its bytes, and for JXTK audioName the watch's name for
// it. The answer follows the store, so a message fleetd could not record
// is sent again.

var errVoice = errors.New("malformed voice message")

// decodeVoice reads a TK frame: a voice message, or the watch's answer to
// one sent to it ("TK,1" received, "TK,0" not).
func (p *Protocol) decodeVoice(m *message) (protocols.Result, error) {
	var res protocols.Result
	switch {
	case m.values == "":
		return res, errVoice
	case len(m.values) == 1:
		res.CommandResult = m.typ + "," + m.values
		return res, nil
	}
	res.Positions, res.Ack = []*model.Position{voicePosition(p, []byte(m.values))}, m.answer("TK,1")
	return res, nil
}

// voicePosition is the position a whole voice message is kept with.
func voicePosition(p *Protocol, audio []byte) *model.Position {
	pos := p.outdated()
	pos.Attributes["audioSize"] = len(audio)
	pos.Media = &model.Media{Key: model.MediaAudio, Ext: "amr", Type: "audio/amr", Data: audio}
	return pos
}

// voice is a chunked voice message being received on a connection.
type voice struct {
	name  string
	next  int    // number of the chunk expected next
	audio []byte // the chunks before next
	last  int    // bytes of chunk next-1, replaced when the watch resends it
}

// maxChunks bounds the chunk count of one message, and maxVoice its bytes
// (15 seconds of AMR audio are about 25 KB): a connection holds no more
// than that for a message not yet whole.
const (
	maxChunks = 9999
	maxVoice  = 256 << 10
)

// decodeVoiceChunk reads a JXTK frame. Every chunk but the last is
// answered at once (the connection keeps its bytes); the last one yields
// the voice message position and is answered once that is stored. A
// message whose chunks were missed on this connection is kept as it came;
// one over maxVoice is refused.
func (p *Protocol) decodeVoiceChunk(s *session, m *message) (protocols.Result, error) {
	var res protocols.Result
	f := strings.SplitN(m.values, ",", 5)
	if len(f) < 5 || f[1] == "" {
		return res, errVoice
	}
	name := f[1]
	n, err1 := strconv.Atoi(f[2])
	total, err2 := strconv.Atoi(f[3])
	if err1 != nil || err2 != nil || n < 1 || n > total || total > maxChunks {
		return res, errVoice
	}
	v := s.voice
	if v.name != name || n == 1 {
		v = voice{name: name, next: 1}
	}
	chunk := f[4]
	if n == v.next-1 { // sent again
		v.audio = v.audio[:len(v.audio)-v.last]
	}
	if len(v.audio)+len(chunk) > maxVoice {
		s.voice = voice{}
		return res, errVoice
	}
	v.audio = append(v.audio, chunk...)
	v.next, v.last = n+1, len(chunk)
	s.voice = v
	if n < total {
		res.Reply = m.answer("JXTKR,1")
		return res, nil
	}
	// The connection keeps the message: a last chunk sent again (its
	// answer was lost) replaces itself and yields the whole message again.
	pos := voicePosition(p, bytes.Clone(v.audio))
	pos.Attributes["audioName"] = name
	res.Positions, res.Ack = []*model.Position{pos}, m.answer("JXTKR,1")
	return res, nil
}

// decodePicture reads an img frame, a photo the watch took when asked
// (rcapture): "img,<n>,<yyMMddHHmmss>,<JPEG>". It is kept as a position
// without a location with the photo as its file, named in the "image"
// attribute. The watch expects no answer.
func (p *Protocol) decodePicture(m *message) (protocols.Result, error) {
	var res protocols.Result
	f := strings.SplitN(m.values, ",", 3)
	if len(f) < 3 || len(f[1]) != 12 || f[2] == "" {
		return res, errors.New("malformed picture")
	}
	pos := p.outdated()
	pos.Media = &model.Media{Key: model.MediaImage, Ext: "jpg", Type: "image/jpeg", Data: []byte(f[2])}
	res.Positions = []*model.Position{pos}
	return res, nil
}
