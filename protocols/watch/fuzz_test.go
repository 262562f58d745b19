package watch

import (
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

// FuzzSplitDecode runs arbitrary bytes through the Split loop the listener
// uses and decodes every frame: nothing may panic or stop making progress.
func FuzzSplitDecode(f *testing.F) {
	prototest.AddSeeds(f, frameUD, frameLK, frameLK3, frameAL, frameTKQ, frameZJ, framePLS, rawBracket, escaped,
		"[3G*2104326058*00E9*UD_LTE,300621,135101,A,32.162652,N,34.888748,E,30.84,265.158,65.621,18,100,83,0,0,00000000,1,1,425,01,10223,8012811,100,3,ES4104,22:74:1d:39:64:ff,-46,metropoline-wifi,a8:3f:a1:e0:66:ba,-89,Egged.co.il,00:0c:42:51:cf:cd,-81,1.7055488]",
		frameBPHRT, frameBTemp, frameOxygen, frameTK, frameConfig, "[CS*1234567890*0004*TK,1]",
		"[3G*8308406279*0008*rcapture]", "[3G*8800000015*0005*AL,xx]",
		"[3G*8800000015*0019*img,5,160429110950,\xff\xd8\xff\xe0}\x03\xff\xd9]",
		"[ZJ*789468050042692*0034*0010*JXTK,0,watch_7_20220526093954,5,6,h]"+
			"[ZJ*789468050042692*0035*0010*JXTK,0,watch_7_20220526093954,6,6,ij]",
	)
	f.Add(jxtkChunks(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		prototest.SplitDecode(t, testProtocol(), data)
		prototest.Recognized(t, testProtocol(), data)
	})
}
