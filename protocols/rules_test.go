package protocols_test

import (
	"encoding/hex"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/inbox"
	"github.com/fleetd/fleetd/app/model"
)

// ruleStep is one frame of a protocol's conversation and what must follow.
type ruleStep struct {
	name  string
	frame string
	// answer is the start of what fleetd must answer ("" for nothing); an
	// answer to a stored frame is checked to come after the store.
	answer string
	stored int    // positions the device has after the step
	inbox  string // the start of the reason of the inbox entry it leaves ("" for none)
}

// The rule of docs/devices.md ("What is acknowledged, stored and kept"),
// per protocol, on real frames through a real socket and a real store: a
// frame with data is answered (where the protocol answers it) only once
// stored, a data-free one at once, a type not decoded never, and it goes
// to the raw-frame inbox.
func TestProtocolRules(t *testing.T) {
	tests := []struct {
		protocol, uniqueID string
		binary             bool // frames and answers in hex
		steps              []ruleStep
	}{
		{"teltonika", "123456789012345", true, []ruleStep{
			{"imei handshake", "000f313233343536373839303132333435", "01", 0, ""},
			{"codec 8 record", "000000000000002c08010000013eff8d6f9800173295002111f400008100ae0b0000000401010003090016432980422f7200000100007a5d",
				"00000001", 1, ""},
			{"codec 8 record, resent", "000000000000002c08010000013eff8d6f9800173295002111f400008100ae0b0000000401010003090016432980422f7200000100007a5d",
				"00000001", 1, ""},
			{"latitude bit flipped, CRC unchanged", "000000000000002c08010000013eff8d6f9800173295002111f500008100ae0b0000000401010003090016432980422f7200000100007a5d",
				"", 1, inbox.ChecksumMismatch},
			{"codec not decoded", "00000000000000030f0101000053f0", "", 1, "codec 0x0f not decoded"},
		}},
		{"h02", "4210051415", false, []ruleStep{
			{"bare heartbeat", "*HQ,4210051415,HTBT#", "*HQ,4210051415,HTBT#", 0, ""},
			{"position", "*HQ,4210051415,V1,164549,A,0956.3869,N,08406.7068,W,000.00,000,221215,FFFFFBFF,712,01,0,0,6#",
				"*HQ,4210051415,V4,V1,", 1, ""},
			{"position, resent", "*HQ,4210051415,V1,164549,A,0956.3869,N,08406.7068,W,000.00,000,221215,FFFFFBFF,712,01,0,0,6#",
				"*HQ,4210051415,V4,V1,", 1, ""},
			{"heartbeat with battery", "*HQ,4210051415,HTBT,100#", "*HQ,4210051415,HTBT#", 2, ""},
			{"type not decoded", "*HQ,4210051415,XT,1,100#", "", 2, `message type "XT" not decoded`},
		}},
		{"watch", "8800000015", false, []ruleStep{
			{"link", "[SG*8800000015*0002*LK]", "[SG*8800000015*0002*LK]", 0, ""},
			{"link with status", "[SG*8800000015*000B*LK,0,10,100]", "[SG*8800000015*0002*LK]", 1, ""},
			{"position (not answered by the protocol)", "[SG*8800000015*0087*UD,220414,134652,A,22.571707,N,113.8613968,E,0.1,0.0,100,7,60,90,1000,50,0000,4,1,460,0,9360,4082,131,9360,4092,148,9360,4091,143,9360,4153,141]",
				"", 2, ""},
			{"alarm", "[SG*8800000015*003e*AL_LTE,170525,214118,V,0,N,0,E,0,0,0,0,0,22,0,0,00010000,0,0,0]", "[SG*8800000015*0002*AL]", 3, ""},
			{"type not decoded", "[SG*8800000015*0008*calllog1]", "", 3, "message type"},
		}},
		{"tk103", "088048003342", false, []ruleStep{
			{"handshake", "(088048003342BP00HSO)", "(088048003342AP01HSO)", 0, ""},
			{"login with a fix", "(088048003342BP05354188048003342150917A1352.9801N10030.9050E000.0103115265.5600010000L000003F9)",
				"(088048003342AP05)", 1, ""},
			{"position (not answered by the protocol)", "(088048003342BR00151024A2555.3531S02855.3329E004.7055148276.1701000000L00009AA3)",
				"", 2, ""},
			{"alarm", "(088048003342BO012061830A2934.0133N10627.2544E040.0080331309.6200000000L000770AD)", "(088048003342AS012)", 3, ""},
			{"type not decoded", "(088048003342BQ86,0,05550c21b10d1d0f431008bd114c0ea5078400010007a100423932,161117005322,01000001)",
				"", 3, "message type BQ86 not decoded"},
		}},
		{"gps103", "359586015829802", false, []ruleStep{
			{"log-on", "##,imei:359586015829802,A;", "LOAD", 0, ""},
			{"heartbeat", "359586015829802;", "ON", 0, ""},
			{"sos", "imei:359586015829802,help me,0809231429,13554900601,F,062947.294,A,2234.4026,N,11354.3277,E,0.00,;",
				"**,imei:359586015829802,E;", 1, ""},
			{"position (not answered by the protocol)", "imei:359586015829802,tracker,0809231929,13554900601,F,112909.397,A,2234.4669,N,11354.3287,E,0.11,321.53,;",
				"", 2, ""},
			{"photo packet, not decoded", "imei:359586015829802,vr,0c00fa011ea05a03;", "", 2, "photo data"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.protocol, func(t *testing.T) {
			core, admin, l := listening(t, tt.protocol)
			d, err := core.Fleet.Devices.Create(admin, func(d *model.Device) error { d.Name, d.UniqueID = "tracker", tt.uniqueID; return nil })
			if err != nil {
				t.Fatal(err)
			}
			conn, err := net.Dial("tcp", l.Addrs[tt.protocol].String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			stored := func() int {
				ps, err := core.Fleet.Positions(admin, fleet.PositionQuery{DeviceID: d.ID, From: time.Unix(0, 0), To: time.Now().Add(48 * time.Hour)})
				if err != nil {
					t.Fatal(err)
				}
				return len(ps)
			}
			kept := func() []inbox.Frame {
				list, _ := core.Ingest.Frames(admin, inbox.Filter{DeviceID: d.ID})
				return list
			}
			for _, s := range tt.steps {
				before := len(kept())
				frame, answer := []byte(s.frame), s.answer
				if tt.binary {
					frame, _ = hex.DecodeString(s.frame)
					b, _ := hex.DecodeString(s.answer)
					answer = string(b)
				}
				if _, err := conn.Write(frame); err != nil {
					t.Fatal(err)
				}
				if s.answer != "" {
					got := readAnswer(t, conn, len(answer))
					if tt.binary {
						got = hex.EncodeToString([]byte(got))
					}
					if !strings.HasPrefix(got, s.answer) {
						t.Fatalf("%s: answer %q, want %q...", s.name, got, s.answer)
					}
					if n := stored(); n != s.stored {
						t.Fatalf("%s: %d positions when the answer came, want %d", s.name, n, s.stored)
					}
				}
				// Wait for what an unanswered frame leaves, then make sure
				// nothing was answered.
				for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
					if stored() == s.stored && len(kept()) == before+map[bool]int{true: 1}[s.inbox != ""] {
						break
					}
				}
				if n := stored(); n != s.stored {
					t.Fatalf("%s: %d positions, want %d", s.name, n, s.stored)
				}
				list := kept()
				switch {
				case s.inbox == "" && len(list) != before:
					t.Fatalf("%s: left an inbox entry: %+v", s.name, list[0])
				case s.inbox != "" && (len(list) != before+1 || !strings.HasPrefix(list[0].Reason, s.inbox) || list[0].Hex == ""):
					t.Fatalf("%s: inbox %+v, want an entry %q...", s.name, list, s.inbox)
				}
				if s.answer == "" {
					if got := readAnswer(t, conn, 0); got != "" {
						t.Fatalf("%s: answered %q, want nothing", s.name, got)
					}
				}
			}
		})
	}
}

// readAnswer reads what the server sends within a moment: at least n bytes
// (waiting up to 5 s for them), or with n 0 whatever comes in 200 ms.
func readAnswer(t *testing.T, conn net.Conn, n int) string {
	t.Helper()
	var got []byte
	buf := make([]byte, 1024)
	wait := 200 * time.Millisecond
	if n > 0 {
		wait = 5 * time.Second
	}
	conn.SetReadDeadline(time.Now().Add(wait))
	for len(got) < max(n, 1) {
		k, err := conn.Read(buf)
		got = append(got, buf[:k]...)
		if err != nil {
			break
		}
	}
	if n > 0 {
		// The rest of the answer, if it came in pieces.
		conn.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
		k, _ := conn.Read(buf)
		got = append(got, buf[:k]...)
	}
	return string(got)
}

// The device's model, as the operator set it, reaches the decoder: an
// LW-series GT06 reports alarm 0x19 as hard acceleration, where other
// models mean low battery (docs/devices.md, "GT06 models set on the device").
func TestDeviceModelReachesTheDecoder(t *testing.T) {
	const lwAlarm = "78782516180516150812c804b50ee80880e40805dcf909012e000000986633460604190106c393490d0a"
	for _, tc := range []struct{ model, alarm string }{{"LW4G", "hardAcceleration"}, {"", "lowBattery"}} {
		core, admin, l := listening(t, "gt06")
		d, err := core.Fleet.Devices.Create(admin, func(d *model.Device) error {
			d.Name, d.UniqueID, d.Model = "tracker", "123456789012345", tc.model
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		conn, err := net.Dial("tcp", l.Addrs["gt06"].String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		for _, frame := range []string{inboxLogin, lwAlarm} {
			b, _ := hex.DecodeString(frame)
			conn.Write(b)
			if readAnswer(t, conn, 10) == "" {
				t.Fatalf("model %q: no answer to %s", tc.model, frame)
			}
		}
		ps, err := core.Fleet.Positions(admin, fleet.PositionQuery{DeviceID: d.ID, From: time.Unix(0, 0), To: time.Now()})
		if err != nil || len(ps) != 1 || ps[0].Attributes["alarm"] != tc.alarm {
			t.Fatalf("model %q: stored %+v (%v), want one position with alarm %s", tc.model, ps, err, tc.alarm)
		}
	}
}
