package h02

import (
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestDecodeDatagram(t *testing.T) {
	p := testProtocol()
	res, err := p.DecodeDatagram(nil, []byte(textV1+"\r\n"))
	if err != nil || res.UniqueID != "4210051415" || len(res.Positions) != 1 ||
		string(res.Reply) != "*HQ,4210051415,V4,V1,20240102030405#" {
		t.Errorf("V1 packet = %+v, %v", res, err)
	}
	res, err = p.DecodeDatagram(nil, append(prototest.Unhex(t, bin32), textHTBT...))
	if err != nil || res.UniqueID != "135790246811220" || len(res.Positions) != 2 ||
		string(res.Reply) != "*HQ,135790246811220,HTBT#" {
		t.Errorf("two-frame packet = %+v, %v", res, err)
	}
	for _, packet := range []string{"", "garbage", "*HQ,123,V1,12", "*HQ,4109179024,NBR,103732#"} {
		if res, err := p.DecodeDatagram(nil, []byte(packet)); err == nil {
			t.Errorf("DecodeDatagram(%q) = %+v, want an error", packet, res)
		}
	}
}
