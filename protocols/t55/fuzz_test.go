package t55

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

var seeds = append(shared,
	strings.Join(shared, "\r\n"),
	"$GPTXT,NET,1003,A1,-53,232 01*77",
	"$PUBX,00,130209.00,3650.51159,N,01346.10602,E,785.947,D3,4.1,5.2,0.163,87.43,-0.054,7.0,0.88,1.21,0.88,24,01012,0*6D",
	"$GNGLL,4650.5156500,N,01246.1059604,E,164414.90,A,A*77",
	"QZE,868994033976700,35,28062020,113553,22.13673,114.57263,0,22,A,0",
	"$GPRMC,073446.000,A,1255.5125,N,07738.2948,E,0.00,0.53,080316,D*71,11,865733027593268,1,090,086,123,456",
	"$GPRMA,V,0000.00,S,00000.00,E,,,00.0,000.,11.,E*7",
	"$TRCCR,20140101001122.333,V,60.0,-100.0,1.1,2.2,3.3,4.4,*00",
	"$GPRMC,012006,A,4828.10,N,1353.52,E,0.00,0.00,180915,020.3,E*42\r\n$GPFID,ID123456ABC\r\n",
	"$ID,350030950116536,4,WMCS-34,0,IOP,O,0x01,I,0x00,GPSEX,A,D,050703,T,095121,S,9:5,La,51.89573,N,Lo,5.89860,E,DD,0",
)

func FuzzSplitDecode(f *testing.F) {
	prototest.AddSeeds(f, seeds...)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, line := range prototest.SplitDecode(t, testProtocol(), data) {
			if i := bytes.IndexByte(line, '\n'); len(line) > maxLine+2 || i >= 0 && i != len(line)-1 {
				t.Fatalf("bad line %q", line)
			}
		}
		if res, mine := prototest.Recognized(t, testProtocol(), data); mine && res.ChecksumError {
			t.Fatalf("Recognize(%q) = Mine, but its checksum is wrong", data)
		}
	})
}

func FuzzDatagram(f *testing.F) {
	prototest.AddSeeds(f, seeds...)
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := testProtocol().DecodeDatagram(&protocols.Conn{Remote: "192.0.2.1:5005"}, data)
		if err != nil {
			return
		}
		prototest.Storable(t, Name, res, data)
		if res.UniqueID == "" || res.Reply != nil || res.Ack != nil {
			t.Fatalf("datagram %q: %+v", data, res)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	prototest.BenchDecode(b, testProtocol().Decode, []byte(frameRMC))
}
