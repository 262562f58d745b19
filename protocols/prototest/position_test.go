package prototest

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

var fixTime = time.Date(2015, 10, 30, 0, 1, 1, 0, time.UTC)

func decodedPosition() *model.Position {
	return &model.Position{Protocol: "line", FixTime: fixTime, DeviceTime: fixTime, Valid: true,
		Latitude: 54.72306, Longitude: 25.21512, Speed: 12.5, Course: 270.5, Altitude: 30, Accuracy: 5,
		Attributes: model.Attributes{"ignition": true}, Network: map[string]any{"radioType": "gsm"}}
}

func wantPosition() Position {
	return Position{Time: fixTime, Valid: true, Lat: 54.72306, Lon: 25.21512, Speed: 12.5, Course: 270.5,
		Altitude: 30, Accuracy: 5, Attributes: model.Attributes{"ignition": true}, Network: map[string]any{"radioType": "gsm"}}
}

func TestCheckerPosition(t *testing.T) {
	tests := []struct {
		name   string
		change func(p *model.Position)
		fail   bool
	}{
		{"equal", func(*model.Position) {}, false},
		{"coordinates within tolerance", func(p *model.Position) { p.Latitude += 9e-6; p.Longitude -= 9e-6 }, false},
		{"protocol", func(p *model.Position) { p.Protocol = "other" }, true},
		{"fix time", func(p *model.Position) { p.FixTime = p.FixTime.Add(time.Second) }, true},
		{"device time", func(p *model.Position) { p.DeviceTime = time.Time{} }, true},
		{"time zone", func(p *model.Position) { p.FixTime = p.FixTime.In(time.FixedZone("X", 3600)) }, true},
		{"valid", func(p *model.Position) { p.Valid = false }, true},
		{"outdated", func(p *model.Position) { p.Outdated = true }, true},
		{"latitude", func(p *model.Position) { p.Latitude += 2e-5 }, true},
		{"longitude NaN", func(p *model.Position) { p.Longitude = math.NaN() }, true},
		{"speed", func(p *model.Position) { p.Speed += 1e-12 }, true},
		{"course", func(p *model.Position) { p.Course = 0 }, true},
		{"altitude", func(p *model.Position) { p.Altitude = 0 }, true},
		{"accuracy", func(p *model.Position) { p.Accuracy = 0 }, true},
		{"missing attribute", func(p *model.Position) { p.Attributes = model.Attributes{} }, true},
		{"extra attribute", func(p *model.Position) { p.Attributes["door"] = false }, true},
		{"attribute type", func(p *model.Position) { p.Attributes["ignition"] = 1 }, true},
		{"network", func(p *model.Position) { p.Network = nil }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := decodedPosition()
			tt.change(got)
			expectFailures(t, tt.fail, func(tb testing.TB) { Checker{Protocol: "line"}.Position(tb, got, wantPosition()) })
		})
	}
	expectFailures(t, true, func(tb testing.TB) { Checker{Protocol: "line"}.Position(tb, nil, wantPosition()) })
}

func TestCheckerSpeedTolerance(t *testing.T) {
	got := decodedPosition()
	got.Speed += 1e-10
	expectFailures(t, false, func(tb testing.TB) {
		Checker{Protocol: "line", SpeedTolerance: 1e-9}.Position(tb, got, wantPosition())
	})
	got.Speed += 1e-8
	expectFailures(t, true, func(tb testing.TB) {
		Checker{Protocol: "line", SpeedTolerance: 1e-9}.Position(tb, got, wantPosition())
	})
}

func TestCheckerResult(t *testing.T) {
	full := protocols.Result{UniqueID: "1", Reply: []byte("LOAD"), Ack: []byte("ACK"), CommandResult: "done",
		Positions: []*model.Position{decodedPosition()}}
	want := Result{UniqueID: "1", Reply: "LOAD", Ack: "ACK", CommandResult: "done", Positions: []Position{wantPosition()}}
	tests := []struct {
		name   string
		change func(r *protocols.Result)
		fail   bool
	}{
		{"equal", func(*protocols.Result) {}, false},
		{"id", func(r *protocols.Result) { r.UniqueID = "2" }, true},
		{"reply", func(r *protocols.Result) { r.Reply = []byte("ON") }, true},
		{"ack", func(r *protocols.Result) { r.Ack = nil }, true},
		{"command result", func(r *protocols.Result) { r.CommandResult = "" }, true},
		{"checksum error", func(r *protocols.Result) { r.ChecksumError = true }, true},
		{"no position", func(r *protocols.Result) { r.Positions = nil }, true},
		{"position content", func(r *protocols.Result) { r.Positions[0].Course = 1 }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := full
			got.Positions = []*model.Position{decodedPosition()}
			tt.change(&got)
			expectFailures(t, tt.fail, func(tb testing.TB) { Checker{Protocol: "line"}.Result(tb, got, want) })
		})
	}
	// An empty expected reply means none: an empty, non-nil one differs.
	expectFailures(t, true, func(tb testing.TB) {
		Checker{Protocol: "line"}.Result(tb, protocols.Result{Reply: []byte{}}, Result{})
	})
}

func TestCheckerDecode(t *testing.T) {
	check := Checker{Protocol: "line"}
	expectFailures(t, false, func(tb testing.TB) {
		check.Decode(tb, lineStream{}.Decode, "id:42", Result{UniqueID: "42", Reply: "OK"})
	})
	expectFailures(t, true, func(tb testing.TB) { check.Decode(tb, lineStream{}.Decode, "id:42", Result{UniqueID: "42"}) })
	expectFailures(t, true, func(tb testing.TB) { check.Decode(tb, lineStream{}.Decode, "x", Result{}) })
}

func TestDecodeRejects(t *testing.T) {
	decode := lineStream{}.Decode
	expectFailures(t, false, func(tb testing.TB) { DecodeRejects(tb, decode, model.ErrInvalid, "x", "1,2,3,4") })
	expectFailures(t, false, func(tb testing.TB) { DecodeRejects(tb, decode, nil, "x") })
	expectFailures(t, true, func(tb testing.TB) { DecodeRejects(tb, decode, nil, "x", "1,2") })
	expectFailures(t, true, func(tb testing.TB) { DecodeRejects(tb, decode, model.ErrNotFound, "x") })
	leaky := func(*protocols.Conn, []byte) (protocols.Result, error) {
		return protocols.Result{Reply: []byte("ERR")}, errors.New("bad frame")
	}
	expectFailures(t, true, func(tb testing.TB) { DecodeRejects(tb, leaky, nil, "x") })
}

func TestBenchDecode(t *testing.T) {
	if r := testing.Benchmark(func(b *testing.B) { BenchDecode(b, lineStream{}.Decode, []byte("1,2")) }); r.N == 0 {
		t.Error("a decodable frame did not run")
	}
	if r := testing.Benchmark(func(b *testing.B) { BenchDecode(b, lineStream{}.Decode, []byte("id:1")) }); r.N != 0 {
		t.Error("a frame without a position ran")
	}
}
