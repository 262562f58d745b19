package jt808

import (
	"encoding/hex"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

var checker = prototest.Checker{Protocol: Name, SpeedTolerance: 1e-9}

func utc(s string) time.Time {
	t, err := time.Parse(time.DateTime, s)
	if err != nil {
		panic(err)
	}
	return t
}

// hx is hex-written bytes as the Result's text.
func hx(s string) string {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// sharedFrames are every shared frame of samples-next.md section 1, as
// wire bytes (escaped where the test frames are not), with what they
// decode to. Times are the BCD times read as GMT+8; the values Traccar
// asserts (named in each frame's comment in samples-next.md) and the
// fields read from the bytes there are among the expected ones. Frames
// Traccar answers with nothing but that carry data (0x0701, 0x0702,
// 0x1300, 0x2070) get the standard's 0x8001 here once stored.
var sharedFrames = []struct {
	name, model, wire string
	want              prototest.Result
}{
	{"1 0x0702 driver identity (line 41)", "", "7e0702002201827061151401bc012510091507510000303032396238383500000000000000000000000000000000002b7e",
		prototest.Result{UniqueID: "18270611514", Ack: hx("7e80010005018270611514000001bc070200af7e"), Positions: []prototest.Position{
			{Time: utc("2025-10-09 07:07:51"), Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"cardAgency": "", "cardCode": "0029b885", "cardResult": 0, "cardStatus": 1, "cardValidity": "00000000", "driver": ""}},
		}}},
	{"2 0x0704 location batch (line 61)", "", "7e070401654eb6fb4afd9e485b000601003900000000000c000301f5a58700ca24c5000d0000004925111215454501040000000025040000000030011731010aeb095554432b30383a3030003900000000000c000301f5a58e00ca24cd000d0000002825111215454701040000000025040000000030011731010aeb095554432b30383a3030003900000000000c000301f5a5ad00ca24de000e0000011025111215455901040000000025040000000030011931010aeb095554432b30383a3030003900000000000c000301f5a5b100ca24ed000e0000004625111215461401040000000025040000000030011931010aeb095554432b30383a3030003900000000000c000301f5a5a900ca24f5000e000000a125111215461701040000000025040000000030011931010aeb095554432b30383a3030003900000000000c000301f5a5af00ca24fb000e000000dd25111215463201040000000025040000000030011731010beb095554432b30383a3030537e",
		prototest.Result{UniqueID: "865478070102068", Ack: hx("7e800100054eb6fb4afd9e0000485b070400be7e"), Positions: []prototest.Position{
			{Time: utc("2025-11-12 07:45:45"), Valid: true, Outdated: false, Lat: 32.875911, Lon: 13.247685, Speed: 0, Course: 73, Altitude: 13,
				Attributes: model.Attributes{"archive": true, "blocked": false, "charge": false, "ignition": true, "input": int64(0), "odometer": int64(0), "rssi": 23, "sat": 10, "timezone": "UTC+08:00"}},
			{Time: utc("2025-11-12 07:45:47"), Valid: true, Outdated: false, Lat: 32.875918, Lon: 13.247693, Speed: 0, Course: 40, Altitude: 13,
				Attributes: model.Attributes{"archive": true, "blocked": false, "charge": false, "ignition": true, "input": int64(0), "odometer": int64(0), "rssi": 23, "sat": 10, "timezone": "UTC+08:00"}},
			{Time: utc("2025-11-12 07:45:59"), Valid: true, Outdated: false, Lat: 32.875949, Lon: 13.24771, Speed: 0, Course: 272, Altitude: 14,
				Attributes: model.Attributes{"archive": true, "blocked": false, "charge": false, "ignition": true, "input": int64(0), "odometer": int64(0), "rssi": 25, "sat": 10, "timezone": "UTC+08:00"}},
			{Time: utc("2025-11-12 07:46:14"), Valid: true, Outdated: false, Lat: 32.875953, Lon: 13.247725, Speed: 0, Course: 70, Altitude: 14,
				Attributes: model.Attributes{"archive": true, "blocked": false, "charge": false, "ignition": true, "input": int64(0), "odometer": int64(0), "rssi": 25, "sat": 10, "timezone": "UTC+08:00"}},
			{Time: utc("2025-11-12 07:46:17"), Valid: true, Outdated: false, Lat: 32.875945, Lon: 13.247733, Speed: 0, Course: 161, Altitude: 14,
				Attributes: model.Attributes{"archive": true, "blocked": false, "charge": false, "ignition": true, "input": int64(0), "odometer": int64(0), "rssi": 25, "sat": 10, "timezone": "UTC+08:00"}},
			{Time: utc("2025-11-12 07:46:32"), Valid: true, Outdated: false, Lat: 32.875951, Lon: 13.247739, Speed: 0, Course: 221, Altitude: 14,
				Attributes: model.Attributes{"archive": true, "blocked": false, "charge": false, "ignition": true, "input": int64(0), "odometer": int64(0), "rssi": 23, "sat": 11, "timezone": "UTC+08:00"}},
		}}},
	{"3 0x0200 location (line 69)", "", "7e020000880145426551120220000000000000000a009bb1e404fe80d401360000012a25060923014201040001547c14040000000415040000000017020001300115310112eb3f000c00b28950604201407522798f00060089ffffffff000600c5ffffffef0004002d304c001100d5333531383430363230323732383638000600f800000000ef0d00000000000000000011140000147e",
		prototest.Result{UniqueID: "14542655112", Ack: hx("7e8001000501454265511200000220020000847e"), Positions: []prototest.Position{
			{Time: utc("2025-06-09 15:01:42"), Valid: true, Outdated: false, Lat: 10.20362, Lon: -83.787988, Speed: 0, Course: 298, Altitude: 310,
				Attributes: model.Attributes{"battery": 12.364, "blocked": false, "charge": false, "iccid": "8950604201407522798", "ignition": false, "odometer": int64(8716400), "rssi": 21, "sat": 18, "videoAlarm": int64(4)}},
		}}},
	{"4 0x0701 command response (line 81)", "", "7e070100150120764632790008000000114d442c53455420434f4e464947204f4b21187e",
		prototest.Result{UniqueID: "12076463279", Ack: hx("7e8001000501207646327900000008070100d07e"), CommandResult: "MD,SET CONFIG OK!"}},
	{"5 0x0900 transparent (line 89)", "", "7e0900001b41305888975883194000184754534c7c367c317c307c31303231383039347c317c0d0ab47e",
		prototest.Result{UniqueID: "413058889758", Ack: hx("7e8001000541305888975800008319090000797e"), Positions: []prototest.Position{
			{Time: time.Time{}, Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"driverUniqueId": "10218094"}},
		}}},
	{"6 0x6006 text report (line 104)", "", "7e60060055014164192753005a003c5645523a53444b3a42433738455f5045545f56312e30325f3234303631312c4150503a50455431302348573031344a54533130323033443234313130345f4e6f7620203420323032345f31343a34393a33343e4c7e",
		prototest.Result{UniqueID: "14164192753", Ack: hx("7e800100050141641927530000005a600600f17e"), CommandResult: "<VER:SDK:BC78E_PET_V1.02_240611,APP:PET10#HW014JTS10203D241104_Nov  4 2024_14:49:34>"}},
	{"7 0x0200 location (line 118)", "", "7e0200003a019172511329001300000000000000020158df7206c9607000370000008424051311201801040000000030010d31011d5708000000000000000082020092510201230b7e",
		prototest.Result{UniqueID: "19172511329", Ack: hx("7e80010005019172511329000000130200001c7e"), Positions: []prototest.Position{
			{Time: utc("2024-05-13 03:20:18"), Valid: true, Outdated: false, Lat: 22.601586, Lon: 113.86072, Speed: 0, Course: 132, Altitude: 55,
				Attributes: model.Attributes{"blocked": false, "charge": false, "ignition": false, "odometer": int64(0), "power": 14.6, "rssi": 13, "sat": 29, "temp1": 29.1}},
		}}},
	{"8 0x0200 location (line 126)", "", "7e020000520198080908740af300000000000c000f016602a302c662f802fc000000cc24051618132401040000020f30011e310109f30100610204b056020acd5d0b0102d40379b8011423033c51108017ffffffffffffffffffffffffffffc87e",
		prototest.Result{UniqueID: "19808090874", Ack: hx("7e8001000501980809087400000af30200009b7e"), Positions: []prototest.Position{
			{Time: utc("2024-05-16 10:13:24"), Valid: true, Outdated: false, Lat: -23.462563, Lon: -46.555896, Speed: 0, Course: 204, Altitude: 764,
				Attributes: model.Attributes{"batteryLevel": 100, "blocked": false, "charge": false, "ignition": true, "odometer": int64(52700), "rssi": 30, "sat": 9, "temp1": -2.3}},
		}}},
	{"9 0x5502 location blind (line 145)", "", "7e55028c37850011000200c008052106305122348621113550170700001e080000000aaa0000000000000300000000100100020200140a030000000c06003bffa8ffc3c77e",
		prototest.Result{UniqueID: "850011000200", Ack: hx("7e4401000385001100020001550200867e"), Positions: []prototest.Position{
			{Time: utc("2021-05-08 06:30:51"), Valid: false, Outdated: false, Lat: 22.581035, Lon: 113.91695, Speed: 0, Course: 0, Altitude: 20,
				Attributes: model.Attributes{"blocked": false, "charge": true, "odometer": int64(10000), "rssi": 30, "sat": 8, "status": 0, "tilt": "[59,-88,-61]", "wakeSource": 0}},
		}}},
	{"10 0x0900 transparent (line 163)", "", "7e090000344f07788ef87d010138f02305151230460102020001ffffffff000100001457000000020006503134353700000c000a029dc63004b99a98230515132726787e",
		prototest.Result{UniqueID: "868935060010210", Ack: hx("7e800100054f07788ef87d01000001380900008f7e"), Positions: []prototest.Position{
			{Time: utc("2023-05-15 04:30:46"), Valid: true, Outdated: false, Lat: 43.89432, Lon: -79.2726, Speed: 0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"archive": true, "blocked": false, "charge": false, "dtcs": "P1457", "ignition": false}},
		}}},
	{"11 0x0200 location (line 167)", "", "7e0200006476806111898300710000000000100046005d3156065f7128000000000000230511165956660b01fe000001031a5d1a8101670831333231343332326902018b6a01166b01006c0f323034303830393230373533363735711438393434343738383030303030323131303030464b7e",
		prototest.Result{UniqueID: "768061118983", Ack: hx("7e80010005768061118983000000710200007b7e"), Positions: []prototest.Position{
			{Time: utc("2023-05-11 08:59:56"), Valid: true, Outdated: false, Lat: -6.107478, Lon: 106.918184, Speed: 0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"battery": 3.95, "blocked": false, "charge": false, "ignition": false, "password": "13214322"}},
		}}},
	{"12 0x0200 location (line 190)", "", "7e0200004107904226220608ca0000010000000010031dac0d004864f30000000000002212291003220104000179a7300107310100eb17000300e151000300e304000b00d801041edf340000306b007e",
		prototest.Result{UniqueID: "79042262206", Ack: hx("7e80010005079042262206000008ca020000937e"), Positions: []prototest.Position{
			{Time: utc("2022-12-29 02:03:22"), Valid: false, Outdated: false, Lat: 52.276237, Lon: 4.744435, Speed: 0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"alarm": "powerOff", "batteryLevel": 81, "blocked": false, "charge": false, "ignition": false, "odometer": int64(9667900), "rssi": 7, "sat": 0},
				Network:    map[string]any{"cellTowers": []map[string]any{map[string]any{"cellId": int64(12395), "locationAreaCode": 57140, "mobileCountryCode": 260, "mobileNetworkCode": 30}}, "considerIp": false, "radioType": "gsm"}},
		}}},
	{"13 0x0200 location (line 193)", "", "7e020000fe069223000241002e00000000000c0003015a98f806c8a1260013000000e622082617464401040000017f02020001030200002504000000002a0200002b0400000000300117310112e306000005890000f3b4000202000000030202f2000402375f00050400000000000602000c000702000c000801320009020072000b020035000c020050000d020176000e0122000f018a00501b4c46504d34414350584731413337303937000000000000000000000052040000000c01000200010101040000000001020200010103040000000101040203e7010c02000e010d020000010e02059b010f020072011002387001110200000112020000011302000001140200000116020000d17e",
		prototest.Result{UniqueID: "69223000241", Ack: hx("7e800100050692230002410000002e0200005c7e"), Positions: []prototest.Position{
			{Time: utc("2022-08-26 09:46:44"), Valid: true, Outdated: false, Lat: 22.714616, Lon: 113.81175, Speed: 0, Course: 230, Altitude: 19,
				Attributes: model.Attributes{"adc1": 0.0, "adc2": 0.0, "battery": 14.17, "batteryLevel": 0, "blocked": false, "charge": false, "coolantTemp": 74, "fuel": 0.1, "fuelConsumption": 1.2, "hardAccelerationCount": 0, "hardCorneringCount": 0, "hardDecelerationCount": 0, "ignition": true, "input": int64(0), "intakeFlow": 374, "intakePressure": 53, "intakeTemp": 40, "obdOdometer": int64(0), "obdSpeed": 0.0, "odometer": int64(38300), "power": 14.175, "rpm": 754, "rssi": 23, "sat": 18, "tripFuel": 0.1, "tripOdometer": 0.1, "vin": "LFPM4ACPXG1A37097"}},
		}}},
	{"14 text BASE,2 (line 211)", "", "283739343130343030343134302c312c3030312c424153452c322c54494d4529",
		prototest.Result{UniqueID: "794104004140", Reply: "(794104004140,1,001,BASE,2,20240506070809)"}},
	{"15 0x0200 location (line 214)", "", "7e02000053200002604323004800000000000c00000158b91406cb7007006b00000000220512101138010400000f2803020000250400000000300114310100e30100d50e0100026043232795980277530030e50400000000e7020fc8e8020e83ab7e",
		prototest.Result{UniqueID: "200002604323", Ack: hx("7e8001000520000260432300000048020000ec7e"), Positions: []prototest.Position{
			{Time: utc("2022-05-12 02:11:38"), Valid: false, Outdated: false, Lat: 22.591764, Lon: 113.995783, Speed: 0, Course: 0, Altitude: 107,
				Attributes: model.Attributes{"blocked": false, "charge": false, "ignition": false, "input": int64(0), "lock1Battery": 83, "lock1Card": "2795980277", "lock1Id": "0002604323", "lock1Locked": false, "odometer": int64(388000), "rssi": 20, "sat": 0}},
		}}},
	{"16 0x0200 location (line 235)", "", "7e0200007c0191718447540dcd000000008000000b029eabc204ba78510004000000042111182321120104000017f6cc14383933303237323037303339333033383732373130011d800134810204718202008283010e84017b85021ae986012f870201788901038b114a4e31424a314352364b573333363533358c040008dcb68d02018c8e013da000c07e",
		prototest.Result{UniqueID: "19171844754", Ack: hx("7e8001000501917184475400000dcd020000307e"), Positions: []prototest.Position{
			{Time: utc("2021-11-18 15:21:12"), Valid: true, Outdated: false, Lat: 43.95309, Lon: -79.329361, Speed: 0, Course: 4, Altitude: 4,
				Attributes: model.Attributes{"blocked": false, "charge": false, "coolantTemp": 83, "dtcs": "", "engineLoad": 14, "fuel": 61, "fuelConsumption": 6889, "ignition": true, "intakeFlow": 376, "intakeTemp": 7, "obdOdometer": int64(58079000), "odometer": int64(613400), "power": 13.0, "rpm": 1137, "rssi": 29, "throttle": 3, "tripOdometer": 396000, "vin": "JN1BJ1CR6KW336535"}},
		}}},
	{"17 0x2070 acceleration (line 238)", "", "7e207002940121523001530047210927151009000e002d80ac210927151010000e002d80ab210927151011000e002d80ac210927151012000e002e80ab210927151013000e002d80ab210927151014000e002d80ab210927151015000e002d80ab210927151016000e002d80aa210927151017000e002e80ab210927151018000e002d80ab210927151019000e002e80ac210927151020000e002d80ab210927151021000e002d80ab210927151022000d002d80ac210927151023000e002d80ac210927151024000e002e80ab210927151025000e002e80b0210927151026000e002e80ab210927151027000e002d80ab210927151028000e002e80b0210927151029000e002d80b0210927151030000e002e80ab210927151031000e002d80ab210927151032000e002d80aa210927151033000e002d80ab210927151034000e002d80ab210927151035000e002d80ab210927151036000e002d80ab210927151037000e002d80ab210927151038000e002d80b0210927151039000d002e80aa210927151040000e002d80ab210927151041000e002d80a5210927151042000e002e80ab210927151043000e002d80aa210927151044000e002d80ab210927151045000e002d80ab210927151046000e002d80ac210927151047000e002e80ab210927151048000e002e80a5210927151049000e002d80ab210927151050000e002d80ab210927151051000e002d80ab210927151052000e002d80ab210927151053000e002d80aa210927151054000e002e80b0210927151055000e002e80ab210927151056000e002d80ac210927151057000e002e80ab210927151058000e002d80ab210927151059000e002e80ab210927151100000e002d80ab210927151101000e002e80aa210927151102000e002d80a6210927151103000e002e80a5847e",
		prototest.Result{UniqueID: "12152300153", Ack: hx("7e8001000501215230015300000047207000837e"), Positions: []prototest.Position{
			{Time: time.Time{}, Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"gSensor": "[[14,45,-172],[14,45,-171],[14,45,-172],[14,46,-171],[14,45,-171],[14,45,-171],[14,45,-171],[14,45,-170],[14,46,-171],[14,45,-171],[14,46,-172],[14,45,-171],[14,45,-171],[13,45,-172],[14,45,-172],[14,46,-171],[14,46,-176],[14,46,-171],[14,45,-171],[14,46,-176],[14,45,-176],[14,46,-171],[14,45,-171],[14,45,-170],[14,45,-171],[14,45,-171],[14,45,-171],[14,45,-171],[14,45,-171],[14,45,-176],[13,46,-170],[14,45,-171],[14,45,-165],[14,46,-171],[14,45,-170],[14,45,-171],[14,45,-171],[14,45,-172],[14,46,-171],[14,46,-165],[14,45,-171],[14,45,-171],[14,45,-171],[14,45,-171],[14,45,-170],[14,46,-176],[14,46,-171],[14,45,-172],[14,46,-171],[14,45,-171],[14,46,-171],[14,45,-171],[14,46,-170],[14,45,-166],[14,46,-165]]"}},
		}}},
	{"18 0x5501 location 2 (line 259)", "", "7e550104337401903111850622072002454206133574075359513a0000080100000001aa00005ded05e203000000000c06005affb5ffb40a0302dc65100100137e",
		prototest.Result{UniqueID: "740190311185", Positions: []prototest.Position{
			{Time: utc("2020-07-22 02:45:42"), Valid: true, Outdated: false, Lat: 6.222623333333333, Lon: -75.59918833333333, Speed: 0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"blocked": false, "charge": true, "odometer": int64(1000), "rssi": 8, "sat": 1, "status": 0, "tilt": "[90,-75,-76]", "wakeSource": 0}},
		}}},
	{"19 text result (line 263)", "", "283734303139303331313138352c312c3030312c454c4f434b2c332c35323934333929",
		prototest.Result{UniqueID: "740190311185", CommandResult: "(740190311185,1,001,ELOCK,3,529439)"}},
	{"20 0x1300 text response (line 267)", "", "7e13000012045450091546010900000053006500740020004f004b0021000d197e",
		prototest.Result{UniqueID: "45450091546", Ack: hx("7e8001000504545009154600000109130000c57e"), CommandResult: "Set OK!"}},
	{"21 0x0200 location (line 289)", "", "7e0200004e08026300003006480000000000000007021477d90841920700000000005019110515194001040000167130011631010cd00400000400d3020027d4013fd6143839363130313832303030343833363532383330da0104897e",
		prototest.Result{UniqueID: "80263000030", Ack: hx("7e8001000508026300003000000648020000917e"), Positions: []prototest.Position{
			{Time: utc("2019-11-05 07:19:40"), Valid: true, Outdated: false, Lat: -34.895833, Lon: 138.514951, Speed: 0, Course: 80, Altitude: 0,
				Attributes: model.Attributes{"batteryLevel": 63, "blocked": false, "charge": false, "ignition": true, "odometer": int64(574500), "power": 3.9, "rssi": 22, "sat": 12}},
		}}},
	{"22 0x0200 location (line 307)", "", "7e02000054093037612710000700000000000000010223aca000dc9dd800000000000017121417122133362a4d30302c34352c31313336393042383030313233303026303030303030303030303030263132333435363738393031323334353623897e",
		prototest.Result{UniqueID: "93037612710", Ack: hx("7e8001000509303761271000000007020000d97e"), Positions: []prototest.Position{
			{Time: utc("2017-12-14 09:12:21"), Valid: false, Outdated: false, Lat: 35.892384, Lon: 14.458328, Speed: 0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"battery": 3.69, "blocked": false, "charge": false, "ignition": true}},
		}}},
	{"23 0x0200 location (line 310)", "", "7e0200002c00160128561400020000000000040001005de1f7065c6cef00000000000017011710044201040000a9002a02000030011b3101030c7e",
		prototest.Result{UniqueID: "1601285614", Ack: hx("7e8001000500160128561400000002020000f97e"), Positions: []prototest.Position{
			{Time: utc("2017-01-17 02:04:42"), Valid: false, Outdated: false, Lat: 6.152695, Lon: 106.720495, Speed: 0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"blocked": false, "charge": false, "ignition": true, "odometer": int64(4326400), "rssi": 27, "sat": 3}},
		}}},
	{"24 0x0100 register (line 316)", "", "7e0100002d0141305678720024002c012f373031313142534a2d41362d424400000000000000000000003035363738373201d4c14238383838386d7e",
		prototest.Result{UniqueID: "14130567872", Reply: hx("7e8100000f0141305678720000002400303134313330353637383732887e")}},
	{"25 0x0100 register (line 319)", "", "7e0100002d013511221122000500000000373031303748422d52303347424400000000000000000000003233363631303402cbd5424136383630387e",
		prototest.Result{UniqueID: "13511221122", Reply: hx("7e8100000f0135112211220000000500303133353131323231313232b87e")}},
	{"26 0x0102 auth (line 325)", "", "7e0102000e013511221122000661757468656e7469636174696f6e3f7e",
		prototest.Result{UniqueID: "13511221122", Reply: hx("7e8001000501351122112200000006010200b57e")}},
	{"27 0x0200 location (line 337)", "", "7e0200002e094027587492000a000000010000000a03083db7001329f3000000140000130412164952010400000012360a0002341502cb0c20085c107e",
		prototest.Result{UniqueID: "94027587492", Ack: hx("7e800100050940275874920000000a0200005c7e"), Positions: []prototest.Position{
			{Time: utc("2013-04-12 08:49:52"), Valid: true, Outdated: false, Lat: 50.871735, Lon: -1.255923, Speed: 1.079913606911447, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"alarm": "sos", "blocked": false, "charge": false, "ignition": false, "odometer": int64(1800)}},
		}}},
	{"28 0x0002 heartbeat (line 343)", "", "7e0002000004304832546500b7ca7e",
		prototest.Result{UniqueID: "43048325465", Reply: hx("7e80010005043048325465000000b70002004e7e")}},
	{"29 0x0200 location (line 346)", "", "7e020000964130564801050048000000001000004f01651e2e02caec3802e80000001524062616002101040000000330011f31010ef1040000308cf231414f56585f564c3330302d4c415f48322e315f4547393135554c4141425230334130324d30385f56322e312e305f763130f3011ff400f5080000000000000001f6084008fffffffd0009f70600000e870246f912000f000000010000062a00082406261600184d7e",
		prototest.Result{UniqueID: "413056480105", Ack: hx("7e8001000541305648010500000048020000a57e"), Positions: []prototest.Position{
			{Time: utc("2024-06-26 08:00:21"), Valid: true, Outdated: false, Lat: -23.404078, Lon: -46.853176, Speed: 0, Course: 21, Altitude: 744,
				Attributes: model.Attributes{"battery": 3.719, "batteryLevel": 70, "blocked": false, "charge": true, "hdop": 0.8, "ignition": true, "imei": "008fffffffd0009", "odometer": int64(300), "power": 12.428, "rssi": 31, "sat": 14, "versionFw": "AOVX_VL300-LA_H2.1_EG915ULAABR03A02M08_V2.1.0_v10"}},
		}}},
	{"30 0x0210 location batch 2 (line 368)", "", "7e0210000704546000231900884f2606180229579c7e",
		prototest.Result{UniqueID: "45460002319", Ack: hx("7e8001000504546000231900000088021000147e"), Positions: []prototest.Position{
			{Time: utc("2026-06-17 18:29:57"), Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"batteryLevel": 79}},
		}}},
	{"31 0x0107 attributes (line 372)", "", "7e0107004904546000563500030000584300000043354c00000000000000000000000000000000003938383731323589883030000131882455001943354c5f56322e3620323032362f30362f30342031353a33310301f47e",
		prototest.Result{UniqueID: "45460005635", Ack: hx("7e8001000504546000563500000003010700d27e"), Positions: []prototest.Position{
			{Time: time.Time{}, Valid: false, Outdated: true, Lat: 0, Lon: 0, Speed: 0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"iccid": "89883030000131882455"}},
		}}},
	{"32 0x1007 timezone sync (line 376)", "", "7e10070004045460002319090640000000567e",
		prototest.Result{UniqueID: "45460002319", Reply: hx("7e8001000504546000231900000906100700967e")}},
	{"33 0x0200 location (line 397)", "JC371", "7e020000344eb6fb4ad6280001000000000000000301587d010106cbff6600000000000026010112000001040000007b30011831010ae80a2003070105019f030190657e",
		prototest.Result{UniqueID: "865478070001047", Ack: hx("7e800100054eb6fb4ad62800000001020000307e"), Positions: []prototest.Position{
			{Time: utc("2026-01-01 04:00:00"), Valid: true, Outdated: false, Lat: 22.576385, Lon: 114.032486, Speed: 0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"battery": 4.15, "batteryLevel": 83, "blocked": false, "charge": true, "ignition": true, "odometer": int64(12300), "power": 4.0, "rssi": 3, "sat": 10}},
		}}},
	{"34 0x0200 location (line 401)", "JC371", "7e0200003e4eb6fb4ad6280002000000000000000301587d010106cbff6600000000000026010112000001040000007b30011831010ae8140c01103131313131313126010112000000000000467e",
		prototest.Result{UniqueID: "865478070001047", Ack: hx("7e800100054eb6fb4ad62800000002020000337e"), Positions: []prototest.Position{
			{Time: utc("2026-01-01 04:00:00"), Valid: true, Outdated: false, Lat: 22.576385, Lon: 114.032486, Speed: 0, Course: 0, Altitude: 0,
				Attributes: model.Attributes{"alarm": "sos", "blocked": false, "charge": false, "ignition": true, "odometer": int64(12300), "rssi": 24, "sat": 10}},
		}}},
}

func TestSharedFrames(t *testing.T) {
	p := &Protocol{now: prototest.Clock}
	for _, tc := range sharedFrames {
		t.Run(tc.name, func(t *testing.T) {
			wire := prototest.Unhex(t, tc.wire)
			prototest.OneFrame(t, p.Split, wire)
			res, err := p.Decode(&protocols.Conn{Model: tc.model}, wire)
			if err != nil {
				t.Fatal(err)
			}
			checker.Result(t, res, tc.want)
			if res.Unsupported != "" {
				t.Errorf("unsupported: %s", res.Unsupported)
			}
		})
	}
}
