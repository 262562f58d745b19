package ingest

import (
	"regexp"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
)

// MaxMediaSize bounds one file a device sends. The protocols' frame limits
// keep real ones far smaller (a watch's photo or voice message is tens of
// kilobytes); this only keeps a decoder's mistake from filling the store.
const MaxMediaSize = 8 << 20

var mediaExt = regexp.MustCompile(`^[a-z0-9]{1,8}$`)

// nameMedia names the file p came with and sets the attribute that tells
// clients where it is (Traccar's "image", "audio", "video", served by GET
// /api/media/{uniqueId}/{name}). It returns the store key for the file,
// or "" when p has none or one the ingest does not take: that is logged
// and p stored without it, as its position is still worth keeping.
func (ig *Service) nameMedia(p *model.Position, now time.Time) string {
	m := p.Media
	if m == nil {
		return ""
	}
	switch {
	case m.Key != model.MediaImage && m.Key != model.MediaAudio && m.Key != model.MediaVideo,
		!mediaExt.MatchString(m.Ext), m.Type == "", strings.IndexByte(m.Type, 0) >= 0,
		len(m.Data) == 0, len(m.Data) > MaxMediaSize:
		ig.log.Warn("device file not kept", "deviceId", p.DeviceID, "protocol", p.Protocol,
			"key", m.Key, "ext", m.Ext, "type", m.Type, "bytes", len(m.Data))
		p.Media = nil
		return ""
	}
	name := fleet.NewMediaName(now, m.Ext)
	if p.Attributes == nil {
		p.Attributes = model.Attributes{}
	}
	p.Attributes[m.Key] = name
	return fleet.MediaKey(p.DeviceID, name)
}
