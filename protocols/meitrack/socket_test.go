package meitrack_test

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols/meitrack"
	"github.com/fleetd/fleetd/protocols/sockettest"
)

// sharedFrames are samples-next.md section 4's frames as wire bytes (text,
// or hex when binary), the device they name, the answer they get and how
// many positions they store. Frames whose checksum is wrong come from
// devices registered with ignoreChecksum.
var sharedFrames = []struct {
	name, frame, imei, answer string
	positions                 int
	badSum                    bool
}{
	{"CCE hours", "24246d3230312c3836393430393036323730323834332c4343452c000000000100a7002a000d05010626070914001502930194009500960097629d209e63a1640e0824000956000a07000b2a001606001704001901001a0e0b91280092280099ef049c52009f1b004023000c0215b9f2ff035855f506041e0f142d0c01708c010d748ac2001c012000009a000000009bd0623e02a0889ff201a2d61a0000a542020000fef4a3d50900030e0cfe010a007f466ffc0000000049090401000000000000004b0501010232472a44360d0a", "869409062702843", "", 1, true},
	{"D82", "$$u28,864606044993987,D82,0*D6\r\n", "864606044993987", "", 0, false},
	{"CCE 3", "2424423233392c3836323039303035303030373436352c4343452c0100000003004300130006050006000700140015801b00080800000900000a00000b0000165105198d011a630540160005024c5e910103590bfe0204922153290c6b2501000dd5b50200004300130006050006000700140015011b00080800000900000a00000b0000165005198d011a630540010005024c5e910103590bfe0204932153290c6b2501000dd6b50200004300130006050006000700140015011b00080800000900000a00000b0000165205198d011a630540230005024c5e910103590bfe0204942153290c6b2501000dd7b50200002a43330d0a", "862090050007465", "", 3, false},
	{"CCE 1", "24246b3131342c3836353738393032343134303439352c4343452c0000000001005000130006011f05010607071415001b00060800000949010a0c000b9b0119a1011afe010602e934ce0203fc9aeb0004309f13220cafc503000d97741e001c01000000010e0ce8000300092f2e060000b7ff2a33330d0a", "865789024140495", "", 1, false},
	{"CCE 3 cells", "24245f3237382c3836353738393032313434373233322c4343452c5b00000003005000130006012305010608070d15001b0006080000091e010a09000b2e0019a1011af90106025c033300039be60c06044f6678210c6f1806000d48db06001c41000000010e0cf60113002005912b830001ff5000130006012305010608070d15001b0006080000091e010a09000b2e0019a0011af90106025c033300039be60c0604506678210c6f1806000d49db06001c41000000010e0cf60113002005912b830001ff5000130006012305010608070d15001b0006080000091e010a09000b2e0019a1011af90106025c033300039be60c0604516678210c6f1806000d4adb06001c41000000010e0cf60113002005912b830001ff2a37460d0a", "865789021447232", "", 3, false},
	{"AAA K157", "$$K157,866771027160687,AAA,3,37.040231,10.042391,160412151656,A,10,11,0,48,0.8,21,1035518,774980,605|2|0010|307B,0400,0000|0000|0000|0A47|03E3,,,1,0000,001206*2C\r\n", "866771027160687", "", 1, false},
	{"D03", "$$D28,353358017784062,D03,OK*F3\r\n", "353358017784062", "@@O46,353358017784062,D00,camera_picture.jpg,0*28\r\n", 0, false},
	{"AAA A158", "$$A158,79007001520234,AAA,35,40.996370,-8.575065,150730184834,A,8,24,0,1,1.3,173,32573389,31405012,268|3|2BC0|250B,2000,|||0A2D|0000,00000001,,50,,,,,,,,,,,,,*4A\r\n", "79007001520234", "", 1, true},
	{"AAA I152", "$$I152,013949004569813,AAA,37,54.739468,25.273648,150208173414,A,5,24,0,73,1.5,165,74,3381,246|1|0065|118A,0000,0003|0003|0000|08D4|0002,006380DF,,1,0008*7C\r\n", "013949004569813", "", 1, false},
	{"AAA j138", "$$j138,012896000475498,AAA,35,-6.138306,106.910655,121205103708,A,3,11,0,0,1,36,4182,35025,510|10|0081|4F4F,0000,000A|000C|000A|0915|0000,,*BF\r\n", "012896000475498", "", 1, false},
	{"AAA K146", "$$K146,013227004985762,AAA,35,28.618005,-81.246783,131101213828,A,9,22,0,209,1.1,23,80974,1187923,310|260|2A13|634E,0000,0000|0000|0000|09DA|0B34,,*51\r\n", "013227004985762", "", 1, false},
	{"AFF", "$$J163,123123123123123,AFF,0004,35,58.588926,16.180473,140928192856,A,10,27,0,161,1.2,19,1648894,435695,240|24|88B9|E435,0000,|||0A22|0000,00000001,,50,,,,,,,,,,,,,*70\r\n", "123123123123123", "", 1, true},
	{"CCC 18", "2424473937302c3336393830303031333436303637342c4343432c020134005b000000010ce304035db9e000ec6f591a000013000000000c001801edb70200c96d0100e60001004838576501000300a101c20400000000010ce304035db9e000ee6f591a000013000000000c001801edb70200ca6d0100e60001004838576501000300a101c20400000000010ce304035db9e000ef6f591a000013000000000c001801edb70200cc6d0100e60001004838576501000300a101c20400000000020ce304035db9e000f76f591a000016000000000c001801edb70200d36d0100e60001004838576502000300a101bf04000000000a0ce304035db9e000f76f591a000016000000000c001801edb70200d46d0100e60001004838576500000300a101bf0400000000020ce304035db9e000fb6f591a000016000000000c001801edb70200d86d0100e60001004838576502000300a101760400000000180ce304035db9e000fc6f591a0000120000000000008c00edb70200d96d0100e60001004838576502000300a10176040000000019b1e2040323b9e0000b70591a0105150600bb0012002901edb70200e76d0100e60001004838576502000300a2017005000000002023e304031fb9e0001070591a010615070027010d001601fcb70200ec6d0100e60001004838576502000300a201800500000000201fe3040302b9e0001170591a010615090019010d001501feb70200ed6d0100e60001004838576502000300a2018005000000002018e30403dcb8e0001270591a0106150b0011010d00150100b80200ee6d0100e60001004838576502000300a2018005000000002036e3040345b8e0001570591a0107150b002d010b0013010ab80200f16d0100e60001004838576502000300a2018005000000002053e3040326b8e0001670591a0107150d0041010b0013010eb80200f26d0100e60001004838576502000300a2018005000000002070e3040310b8e0001770591a0107150e004f010b00130111b80200f36d0100e60001004838576502000300a2018005000000002095e3040306b8e0001870591a0107150d005a010b00140115b80200f46d0100e60001004838576502000300a20180050000000020b3e3040305b8e0001970591a0107150b0060010b00140118b80200f56d0100e60001004838576502000300a20183050000000020cfe3040308b8e0001a70591a0107150b0066010b0014011bb80200f66d0100e60001004838576502000300a20183050000000020eee304030cb8e0001b70591a0106170b0004000d0014011eb80200f76d0100e60001004838576502000300a2018305000000002a62350d0a", "369800013460674", "@@G28,369800013460674,CCC,18*1A\r\n", 18, false},
	{"AAC", "$$z27,861451040910625,AAC,1*D3\r\n", "861451040910625", "@@z27,861451040910625,AAC,1*0B\r\n", 0, false},
}

func bytesOf(t *testing.T, f string) []byte {
	if strings.HasPrefix(f, "$$") {
		return []byte(f)
	}
	b, err := hex.DecodeString(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestThroughTheSocket sends every shared frame over TCP, each device on
// its connection, and over UDP, and checks the answers and what is stored.
func TestThroughTheSocket(t *testing.T) {
	for _, network := range []string{"tcp", "udp"} {
		t.Run(network, func(t *testing.T) {
			e := sockettest.Start(t, meitrack.New())
			devices := map[string]*model.Device{}
			for _, f := range sharedFrames {
				var attrs model.Attributes
				if f.badSum {
					attrs = model.Attributes{"ignoreChecksum": true}
				}
				devices[f.name] = e.Device(f.imei, "", attrs)
			}
			for _, f := range sharedFrames {
				c := e.Dial()
				if network == "udp" {
					c = e.DialUDP()
				}
				c.Send(bytesOf(t, f.frame))
				if f.answer != "" {
					c.Expect([]byte(f.answer))
				}
				ps := e.WaitStored(devices[f.name].ID, f.positions)
				switch f.name {
				case "AAA K157":
					sockettest.Check(t, ps[0], sockettest.Want{Time: time.Date(2016, 4, 12, 15, 16, 56, 0, time.UTC), Valid: true,
						Lat: 37.040231, Lon: 10.042391, Course: 48,
						Attributes: model.Attributes{"event": 3, "sat": 10, "hdop": 0.8, "odometer": 1035518, "input": 4,
							"battery": 26.31, "power": 9.95, "temp0": 18.06}})
				case "AAA A158":
					sockettest.Check(t, ps[0], sockettest.Want{Time: time.Date(2015, 7, 30, 18, 48, 34, 0, time.UTC), Valid: true,
						Lat: 40.99637, Lon: -8.57507, Course: 1, Attributes: model.Attributes{"event": 35, "sat": 8}})
				case "CCE hours":
					sockettest.Check(t, ps[0], sockettest.Want{Time: time.Date(2023, 12, 19, 8, 21, 50, 0, time.UTC), Valid: true,
						Lat: -0.870123, Lon: 116.741464, Course: 86, Speed: 36 / 1.852, SpeedTolerance: 1e-6,
						Attributes: model.Attributes{"hours": 644515 * 60000}})
				}
			}
		})
	}
}

// TestPhotoCaptureThroughUDP: the photo packet captured cut short has no
// checksum; from a device marked ignoreChecksum it is taken, unanswered.
func TestPhotoCaptureThroughUDP(t *testing.T) {
	e := sockettest.Start(t, meitrack.New())
	e.Device("864507031219974", "", model.Attributes{"ignoreChecksum": true})
	c := e.DialUDP()
	c.Send(bytesOf(t, "242441313038362c3836343530373033313231393937342c4430302c3138303232343037323631345f4331453130395f4e31553144312e6a70672c31342c302cffd8ffdb00"))
	c.Silent(200 * time.Millisecond)
}

// A picture in ten D00 packets through a real listener and store: the
// device is asked for packet 8 after the eighth, and the picture is then
// what the media API serves under the last position's "image".
func TestPhotoThroughTheSocket(t *testing.T) {
	e := sockettest.Start(t, meitrack.New())
	d := e.Device("864507031219974", "", nil)
	c := e.Dial()
	// The device says a picture was taken (its first frame names it) and
	// is asked for the first packet.
	c.Send(meitrackFrame(",864507031219974,D03,OK*"))
	c.Expect([]byte("@@O46,864507031219974,D00,camera_picture.jpg,0*2C\r\n"))
	var picture []byte
	for i := range 10 {
		data := fmt.Sprintf("\xff\xd8<%d>", i)
		picture = append(picture, data...)
		c.Send(meitrackFrame(fmt.Sprintf(",864507031219974,D00,camera_picture.jpg,10,%d,%s*", i, data)))
		if i == 7 {
			c.Expect([]byte("@@O46,864507031219974,D00,camera_picture.jpg,8*34\r\n"))
		}
	}
	ps := e.WaitStored(d.ID, 1)
	name, _ := ps[0].Attributes["image"].(string)
	b, err := e.Core.Fleet.Media(model.System(), "864507031219974", name)
	if err != nil || b.Type != "image/jpeg" || string(b.Data) != string(picture) {
		t.Fatalf("image %q: %+v, %v", name, b, err)
	}
}

// meitrackFrame completes a device frame from its comma after the length
// to its '*': "$$A", the length (counted from that comma to "\r\n"), the
// checksum and "\r\n".
func meitrackFrame(rest string) []byte {
	s := fmt.Sprintf("$$A%d%s", len(rest)+4, rest)
	var sum byte
	for _, b := range []byte(s) {
		sum += b
	}
	return []byte(fmt.Sprintf("%s%02X\r\n", s, sum))
}
