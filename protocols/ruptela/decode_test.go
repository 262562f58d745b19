package ruptela

import (
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

var check = prototest.Checker{Protocol: Name, SpeedTolerance: 1e-6}

const (
	ackRecords = "\x00\x02\x64\x01\x13\xbc"
	ackDTCs    = "\x00\x02\x6d\x01\xc4\xa4"
)

// recordsWant is the one record of recordsFrame, read field by field from
// the layout: 2015-05-27 13:50:49, 55.3460016 E 25.278855 N, angle 243.2,
// 6 satellites, 9 km/h, HDOP 1.3, event 9, eight 1-byte, four 2-byte and
// four 4-byte IO elements.
var recordsWant = prototest.Position{
	Time: time.Date(2015, 5, 27, 13, 50, 49, 0, time.UTC), Valid: true, Lat: 25.278855, Lon: 55.3460016,
	Speed: 9 * kphToKnots, Course: 243.2,
	Attributes: model.Attributes{"adc1": int64(0), "battery": 3.773, "deviceTemp": int64(41), "event": 9,
		"fuelLevel": 0.0, "fuelUsed": 0.0, "hdop": 1.3, "in1": int64(0), "in2": int64(0), "in4": int64(1),
		"io114": int64(0), "io27": int64(19), "io28": int64(1), "motion": false, "odometer": int64(92714),
		"operator": int64(42403), "power": 12.765, "rpm": 0.0, "sat": 6},
}

// TestSharedFrames decodes every shared frame of samples-next.md with the
// values and answers given there.
func TestSharedFrames(t *testing.T) {
	tests := []struct {
		name  string
		frame string
		want  prototest.Result
	}{
		{"68 extended records, three parts of one position", extRecordsFrame, prototest.Result{
			UniqueID: "863514052765894", Ack: ackRecords,
			Positions: []prototest.Position{{
				Time: time.Date(2024, 12, 3, 17, 46, 7, 0, time.UTC), Valid: true, Lat: 33.53196, Lon: -7.637765,
				Speed: 61 * kphToKnots, Course: 163.9, Altitude: 103.8,
				Attributes: model.Attributes{"adc1": int64(157), "adc2": int64(159), "battery": 4.152,
					"driverUniqueId": "01d042f31d000030", "event": 8, "fuel": 32 * 100 / 255.0, "fuelConsumption": 3.5,
					"hdop": 0.5, "ignition": true, "in1": int64(1), "in2": int64(0), "in3": int64(0),
					"io101": int64(0), "io102": int64(0), "io103": int64(0), "io104": int64(6148875035617931312),
					"io105": int64(3834586617142063664), "io106": int64(3819052484010180608), "io107": int64(1642),
					"io1148": int64(255), "io1150": int64(255), "io130": int64(61), "io131": int64(0), "io135": int64(0),
					"io137": int64(0), "io139": int64(3), "io176": int64(61), "io206": int64(0), "io27": int64(30),
					"io405": int64(0), "io406": int64(1), "io407": int64(246), "io408": int64(3), "io418": int64(1),
					"io560": int64(0), "io642": int64(9), "io722": int64(255), "io723": int64(65535), "io754": int64(26792),
					"io920": int64(1734), "io921": int64(61), "io922": int64(23143), "io924": int64(9), "io928": int64(0),
					"io950": int64(0), "io96": int64(118), "io97": int64(60), "io99": int64(4), "motion": false,
					"obdOdometer": int64(23143000), "obdSpeed": int64(60), "odometer": int64(682815),
					"operator": int64(60402), "power": 13.27, "rpm": 1734.0, "sat": 24},
			}},
		}},
		{"15 identification", identFrame, prototest.Result{UniqueID: "869530043209218", Reply: "\x00\x02\x73\x01\xcb\x25"}},
		{"37 file part 0 of 10: the next part is asked for", filePartFrame, prototest.Result{UniqueID: "866600048995021",
			Reply: string(prototest.Unhex(t, "000d89020035444441314641440001bb29"))}},
		{"7 SMS answer", smsAnswerFrame, prototest.Result{UniqueID: "865733025646027",
			CommandResult: "DIN1=1,DIN2=0,DIN3=0,DIN4=0,DOUT1=1,DOUT2=1,AIN1=17,AIN2=26"}},
		{"1 records", recordsFrame, prototest.Result{UniqueID: "863591024076709", Ack: ackRecords,
			Positions: []prototest.Position{recordsWant}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check.Decode(t, New().Decode, string(prototest.Unhex(t, tt.frame)), tt.want)
		})
	}
}

// TestMoreFrames covers the other message kinds, from Traccar's captures
// and frames built to the documented layout.
func TestMoreFrames(t *testing.T) {
	dtcAt := time.Date(2011, 10, 17, 22, 41, 48, 0, time.UTC)
	tests := []struct {
		name  string
		frame []byte
		want  prototest.Result
	}{
		{"9 DTCs (length field short: the CRC marks the end)", prototest.Unhex(t, shortLengthDTCs), prototest.Result{
			UniqueID: "012207001062170", Ack: ackDTCs, Positions: []prototest.Position{
				{Time: dtcAt, Valid: true, Lat: 43.755129, Lon: 13.1467505, Attributes: model.Attributes{"dtcs": "P0010"}},
				{Time: dtcAt, Valid: true, Lat: 43.755129, Lon: 13.1467505, Attributes: model.Attributes{"dtcs": "P0011", "archive": true}},
			}}},
		{"2 configuration answer (length field short)", prototest.Unhex(t, shortLengthAnswer),
			prototest.Result{UniqueID: "868204004248349", CommandResult: "SETIO configuration data ok"}},
		{"16 heartbeat", deviceFrame(testIMEI, 16, ""), prototest.Result{UniqueID: "863591024076709",
			Reply: string(response(16, []byte{1}))}},
		{"17 output answer", deviceFrame(testIMEI, 17, "01"), prototest.Result{UniqueID: "863591024076709", CommandResult: "1"}},
		{"3 version answer", deviceFrame(testIMEI, 3, hex.EncodeToString([]byte("FM-Eco4 01.02.03\r\n"))),
			prototest.Result{UniqueID: "863591024076709", CommandResult: "FM-Eco4 01.02.03"}},
		{"37 last file part: left in the inbox", deviceFrame(testIMEI, 37, "02003544444131464144000a0009ffd9"),
			prototest.Result{UniqueID: "863591024076709"}},
		{"a record without a fix, alarms, a paired driver id and a lone half of one", deviceFrame(testIMEI, 1,
			"0001"+"5565cbb9"+"00"+"00"+"80000000"+"80000000"+"0000000000000000"+"05"+
				"04"+"5801"+"8601"+"9f00"+"a000"+ // jamming, hard braking, io159, io160
				"02"+"4a"+"ff38"+"4e"+"00fa"+ // temp3 -20.0, temp0 25.0
				"00"+
				// CAN driver id 126+127; 155 without 156 is dropped, as Traccar does
				"05"+"7e"+"3132333435363738"+"7f"+"3930414243444546"+"9b"+"0000000000000001"+"f8"+"0000000000000abc"+"f9"+"0000000000000def"),
			prototest.Result{UniqueID: "863591024076709", Ack: ackRecords, Positions: []prototest.Position{{
				Outdated: true, Attributes: model.Attributes{"event": 5, "alarm": "jamming,hardBraking",
					"io159": int64(0), "io160": int64(0), "temp3": -20.0, "temp0": 25.0,
					"driverUniqueId": "1234567890ABCDEF", "io248": int64(0xabc), "io249": int64(0xdef)},
			}}}},
		{"68: a second part with nothing before it, 2-byte ids, tag id halves", deviceFrame(testIMEI, 68,
			"0001"+"5565cbb9"+"00"+"21"+"00"+"20fd21300f113f4600005f000600090d"+"0102"+
				"02"+"019f00"+"02f601"+ // 415 = 0: antenna cut; 758 = 1: tampering
				"00"+"00"+
				"02"+"02f8"+"0000000000000abc"+"02f9"+"0000000000000def"),
			prototest.Result{UniqueID: "863591024076709", Ack: ackRecords, Positions: []prototest.Position{{
				Time: time.Date(2015, 5, 27, 13, 50, 49, 0, time.UTC), Valid: true, Lat: 25.278855, Lon: 55.3460016,
				Speed: 9 * kphToKnots, Course: 243.2, Attributes: model.Attributes{"event": 0x0102, "sat": 6, "hdop": 1.3,
					"alarm": "gpsAntennaCut,tampering", "tagId": "abcdef"},
			}}}},
		{"a command fleetd does not know", deviceFrame(testIMEI, 99, "00"),
			prototest.Result{UniqueID: "863591024076709"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, frame, _ := New().Split(tt.frame, true)
			res, err := New().Decode(&protocols.Conn{}, frame)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range res.Positions {
				if p.Outdated {
					// A record without a fix keeps its device time only.
					if !p.DeviceTime.Equal(time.Date(2015, 5, 27, 13, 50, 49, 0, time.UTC)) {
						t.Errorf("device time %v", p.DeviceTime)
					}
					p.DeviceTime = time.Time{}
				}
			}
			check.Result(t, res, tt.want)
		})
	}
}

func TestUnsupportedAndChecksum(t *testing.T) {
	p := New()
	res, _ := p.Decode(&protocols.Conn{}, deviceFrame(testIMEI, 99, "00"))
	if res.Unsupported != "command 99 not decoded" || res.Reply != nil || res.Ack != nil {
		t.Errorf("unknown command: %+v", res)
	}
	res, _ = p.Decode(&protocols.Conn{}, deviceFrame(testIMEI, 37, "02003544444131464144000a0009ffd9"))
	if !strings.Contains(res.Unsupported, "not kept") || res.Reply != nil {
		t.Errorf("last file part: %+v", res)
	}
	res, _ = p.Decode(&protocols.Conn{}, deviceFrame(testIMEI, 37, "0100"))
	if res.Unsupported != "file message sub-type 1 not decoded" {
		t.Errorf("file sub-type 1: %+v", res)
	}
	bad := prototest.Unhex(t, recordsFrame)
	bad[len(bad)-1] ^= 1
	res, err := p.Decode(&protocols.Conn{}, bad)
	if err != nil || !res.ChecksumError || len(res.Positions) != 1 || string(res.Ack) != ackRecords {
		t.Errorf("bad CRC: %+v, %v; want the records flagged", res, err)
	}
	truncated := deviceFrame(testIMEI, 1, "0001"+"5565cbb9")
	if _, err := p.Decode(&protocols.Conn{}, truncated); err != errTruncated {
		t.Errorf("truncated records: %v", err)
	}
	if _, err := p.Decode(&protocols.Conn{}, truncated[:12]); err != errShort {
		t.Errorf("short frame: %v", err)
	}
}
