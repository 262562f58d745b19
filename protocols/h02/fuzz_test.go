package h02

import (
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// FuzzSplitDecode runs arbitrary bytes through the Split loop the listener
// uses and decodes every frame: nothing may panic or stop making progress.
func FuzzSplitDecode(f *testing.F) {
	prototest.AddSeeds(f, textV1, textHTBT,
		"*HQ,1451316409,V1,030149,A,-23-29.0095,S,-46-51.5852,W,2.4,065,070315,FFFFFFFF#",
		"*HQ,4109179024,NBR,103732,722,310,0,6,8106,32010,23,8101,22007,25,8106,12010,23,8106,22105,22,8101,22012,16,8106,42010,5,100217,FFFFFBFF,5#",
		"*HQ,353505510948929,V1,,V,,N,,E,0.00,0,,FFFFF7FF,f0,a,11a0,c0c6#",
		"*TH,2020916012,V4,S20,DONE,130305,050316,A,2212.8745,N,11346.6574,E,14.28,028,220902,F7FFFBFF#",
		"*hq,356327081001239,VP1,V,470,002,92,3565,0Y92,19433,30Y92,1340,29#",
		"*HQ,355488020882405,V3,095426,74001,01,010278,045142,128,-92,02DE,0,X,090517,FFFFFBFF#",
		"*HQ,1700086468,LINK,180902,15,0,84,0,0,240517,FFFFFBFF#",
		textV8, textSMS, textV5, textV6,
		"*HQ,5905101893,V1,105759,A,37573392,S,145037022,E,000.00,173,280122,FF7FFBFF,,,9059e2c,8232,4#",
		"*TH,2020916012,V4,S1,OK,pass_word,130305,050316,A,2212.8745,N,11346.6574,E,14.28,028,220902,FFFFFBFD#",
		"*HQ,353588020068342,V1,000000,V,0.0000,0,0.0000,0,0.00,0.00,000000,ffffffff,000106,000002,000203,004c87,16#",
		"*HQ,356327080425330,XT,1,100#",
		"*HQ,7401004662,NBR,160453,234,10,0,2,21580,27766,-67,21580,27766,-67,291019,FFFFFBFF,6#",
	)
	prototest.AddHexSeeds(f, bin32, bin45, bin42, bin45b, bin46, bin48, bin42+bin48+bin32)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, p := range []*Protocol{testProtocol(), {MessageLength: 42, now: testProtocol().now}} {
			prototest.SplitDecode(t, p, data)
			prototest.Recognized(t, p, data)
			if res, err := p.DecodeDatagram(&protocols.Conn{}, data); err == nil {
				prototest.Storable(t, p.Name(), res, data)
			}
		}
	})
}
