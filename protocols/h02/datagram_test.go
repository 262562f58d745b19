package h02

import (
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestDecodeDatagram(t *testing.T) {
	p := testProtocol()
	res, err := p.DecodeDatagram(nil, []byte(textV1+"\r\n"))
	if err != nil || res.UniqueID != "4210051415" || len(res.Positions) != 1 ||
		res.Reply != nil || string(res.Ack) != "*HQ,4210051415,V4,V1,20240102030405#" {
		t.Errorf("V1 packet = %+v, %v", res, err)
	}
	res, err = p.DecodeDatagram(nil, append(prototest.Unhex(t, bin32), textHTBT...))
	if err != nil || res.UniqueID != "135790246811220" || len(res.Positions) != 2 ||
		res.Reply != nil || string(res.Ack) != "*HQ,135790246811220,HTBT#" {
		t.Errorf("two-frame packet = %+v, %v", res, err)
	}
	res, err = p.DecodeDatagram(nil, []byte("*HQ,356327080425330,XT,1,100#"))
	if err != nil || res.UniqueID != "356327080425330" || res.Unsupported != `message type "XT" not decoded` ||
		res.Reply != nil || res.Ack != nil || len(res.Positions) != 0 {
		t.Errorf("XT packet = %+v, %v", res, err)
	}
	res, err = p.DecodeDatagram(nil, []byte("*HQ,356327080425330,XT,1,100#"+textHTBT))
	if err != nil || res.Unsupported != "" || string(res.Reply) != "" || string(res.Ack) != "*HQ,135790246811220,HTBT#" {
		t.Errorf("XT and HTBT packet = %+v, %v", res, err)
	}
	for _, packet := range []string{"", "garbage", "*HQ,123,V1,12", "*HQ,4109179024,NBR,103732#"} {
		if res, err := p.DecodeDatagram(nil, []byte(packet)); err == nil {
			t.Errorf("DecodeDatagram(%q) = %+v, want an error", packet, res)
		}
	}
}
