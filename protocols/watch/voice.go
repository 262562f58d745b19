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
	pos := p.outdated()
	pos.Attributes["audioSize"] = len(m.values)
	pos.Media = audioFile([]byte(m.values))
	res.Positions, res.Ack = []*model.Position{pos}, m.answer("TK,1")
	return res, nil
}

// audioFile is a voice message's AMR audio as the position's file.
func audioFile(audio []byte) *model.Media {
	return &model.Media{Key: model.MediaAudio, Ext: "amr", Type: "audio/amr", Data: audio}
}

// voice is a chunked voice message being received on a connection; its
// audio is in the connection's Parts.
type voice struct {
	name  string
	next  int  // number of the chunk expected next
	size  int  // bytes of the chunks before next
	last  int  // bytes of chunk next-1, replaced when the watch resends it
	whole bool // every chunk from the first is in the connection's Parts
}

// maxChunks bounds the chunk count of one message, and maxVoice the audio
// a connection keeps of it (15 seconds of AMR are about 25 KB).
const (
	maxChunks = 9999
	maxVoice  = 256 << 10
)

// decodeVoiceChunk reads a JXTK frame. Every chunk but the last is
// answered at once (the connection keeps its audio); the last one yields
// the voice message position, with the audio as its file, and is
// answered once that is stored. A message whose first chunks this
// connection missed, one over maxVoice, or one the shared media budget
// has no room for is kept without its audio (its size and name only).
func (p *Protocol) decodeVoiceChunk(c *protocols.Conn, s *session, m *message) (protocols.Result, error) {
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
	parts := c.Parts() // nil until the connection's device is known
	v := s.voice
	if v.name != name || n == 1 {
		v = voice{name: name, next: 1, whole: n == 1 && parts != nil}
		if parts != nil {
			parts.Drop()
		}
	}
	chunk := f[4]
	switch {
	case n == v.next-1: // sent again: it replaces itself
		v.size -= v.last
		if v.whole {
			parts.Cut(v.last)
		}
	case n != v.next && v.whole: // chunks missed
		v.whole = false
		parts.Drop()
	}
	v.size += len(chunk)
	if v.whole && !parts.Add([]byte(chunk), maxVoice) {
		v.whole = false
	}
	v.next, v.last = n+1, len(chunk)
	s.voice = v
	if n < total {
		res.Reply = m.answer("JXTKR,1")
		return res, nil
	}
	// The connection keeps the message until the next: a last chunk sent
	// again (its answer was lost) yields the whole message again.
	pos := p.outdated()
	pos.Attributes["audioName"] = name
	pos.Attributes["audioSize"] = v.size
	if v.whole {
		pos.Media = audioFile(bytes.Clone(parts.Bytes()))
	}
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
	pos.Media = protocols.JPEG([]byte(f[2]))
	res.Positions = []*model.Position{pos}
	return res, nil
}
