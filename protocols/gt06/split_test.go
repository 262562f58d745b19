package gt06

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

var streamFrames = append([]string{loginFrame, gpsLBSFrame, gpsLBS2Frame, statusFrame, alarmFrame,
	echoFrame, accelFrame, brakeFrame, extGPSFrame, heartbeatFrame,
	gps4GFrame, gps4G2Frame, fence4GFrame, fence4G2Frame, fence4G3Frame,
	lbsAlarm4GFrame, lbsAlarm4G2Frame, gpsCellsFrame, gpsModulesFrame, iButtonFrame}, append(append(cellFrames, lw4GFrame), variantFrames...)...)

// variantFrames are the model layouts and the message types of
// variants_test.go.
var variantFrames = []string{vxt01GPSFrame, s5GPSFrame, wetrustGPSFrame, cardGPSFrame, qh302rGPSFrame, vxt01AlarmFrame,
	zeroCellAlarm, lwAlarmFrame, g18AlarmFrame, obd6TempFrame, obd6PowerFrame, statusTempFrame, lwStatusFrame,
	seeworld13Frame, r11StatusFrame, seeworld22Frame, nt20Frame, xt40Frame, xt40DriverFrame, jc400Frame, jc400Frame2,
	jc100FilesFrame, sr411Frame, wanwayS20Frame, addressFrame, lbsAddressFrame, sl4xGPSFrame, sl4xStatusFrame,
	sl4xStatus2, az735GPSFrame, az735WifiFrame, az735AlarmFrame, x1Frame, modularTagFrame, modularGPSFrame,
	fence1Frame, seeworldA3Frame, seeworldA3Long, deviceStatus, peripheralFrame, peripheral2, lw4G2Frame,
	gpsNoCRCFrame, gps6NoCRCFrame, infoPowerShort, infoStatusSync, infoDoorTime, infoDoor, infoPower, infoNetwork,
	infoFuelTime, infoFuel, infoRFIDText, infoRFID, infoTemp, trx16iAlarmFrame, trx16iFrame, trx16iNoCard, jimiStatus2Frame, serialText, serialBinary, serialFramed, obdFrame, obdVINFrame, benwayFrame, benwayACCFrame, wifiListFrame}

func TestSplitStreams(t *testing.T) {
	frames := prototest.UnhexStrings(t, streamFrames...)
	garbage := "\x00\x01GET / HTTP/1.1\r\n\x78\x0d\x0a\x79"
	raw := func(hexFrames ...string) string { return strings.Join(prototest.UnhexStrings(t, hexFrames...), "") }
	tests := []struct {
		name, stream string
		want         []string
	}{
		{"merged", strings.Join(frames, ""), frames},
		{"garbage before and between", garbage + strings.Join(frames, garbage), frames},
		// Length 0 instead of 0x0a: the frame ends at the first 0D 0A.
		{"wrong length byte", raw("78780013440604000201baaf540d0a", loginFrame),
			prototest.UnhexStrings(t, "78780013440604000201baaf540d0a", loginFrame)},
		// Length claims more bytes than arrive before EOF.
		{"short frame at eof", raw(login2Frame), []string{raw(login2Frame)}},
		{"stray 0x78 before a header", raw("78", loginFrame), []string{raw(loginFrame)}},
		// A stray header with no trailer in front of a real frame is skipped.
		{"stray header", raw("7878ff01", loginFrame), []string{raw(loginFrame)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { prototest.SplitStream(t, New().Split, MaxFrame, tt.stream, tt.want) })
	}
}

func TestSplitOversize(t *testing.T) {
	login := string(prototest.Unhex(t, loginFrame))
	prototest.SplitFails(t, New().Split, MaxFrame, login+string(prototest.Unhex(t, "7979ffff01020304")),
		errFrameTooLong, []string{login})
	// A header without a trailer is dropped once MaxFrame bytes show none.
	prototest.SplitStream(t, New().Split, MaxFrame, "\x78\x78\x01"+strings.Repeat("\x55", 2*MaxFrame), nil)
}

func TestSplitAsksForMore(t *testing.T) {
	prototest.AsksForMore(t, New().Split, prototest.Unhex(t, gpsLBSFrame))
}
