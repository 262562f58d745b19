package watch

import (
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
// fleetd has no store for device media, so the audio itself is not kept:
// a voice message is kept as a position without a location (the ingest
// gives it the last known one) that says a message of so many bytes arrived:
// audioSize, and for JXTK the watch's name for it, audioName. Traccar's
// "audio" attribute names a file its media API serves; there is no such
// file here, so the attribute is not set. The answer follows the store, so
// a message fleetd could not record is sent again.

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
	res.Positions, res.Ack = []*model.Position{pos}, m.answer("TK,1")
	return res, nil
}

// voice is the progress of a chunked voice message on a connection, so
// the last chunk can tell the size of the whole message.
type voice struct {
	name string
	next int // number of the chunk expected next
	size int // bytes of the chunks before next
	last int // bytes of chunk next-1, replaced when the watch resends it
}

// maxChunks bounds the chunk count of one message (a chunk holds about a
// kilobyte: far more than 15 seconds of AMR audio).
const maxChunks = 9999

// decodeVoiceChunk reads a JXTK frame. Every chunk but the last is
// answered at once (nothing of it is stored: the connection only counts
// its bytes); the last one yields the voice message position and is
// answered once that is stored.
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
	size := len(f[4])
	switch {
	case n == v.next-1: // sent again
		v.size += size - v.last
	default: // the next chunk, or one after chunks this connection missed
		v.size += size
		v.next = n + 1
	}
	v.last = size
	s.voice = v
	if n < total {
		res.Reply = m.answer("JXTKR,1")
		return res, nil
	}
	pos := p.outdated()
	pos.Attributes["audioName"] = name
	pos.Attributes["audioSize"] = v.size
	res.Positions, res.Ack = []*model.Position{pos}, m.answer("JXTKR,1")
	return res, nil
}
