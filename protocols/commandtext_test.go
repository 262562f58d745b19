package protocols

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

func TestCommandText(t *testing.T) {
	texts := map[string]string{"engineStop": "Relay,1#"}
	tests := []struct {
		name string
		cmd  *model.Command
		want string // "" : invalid
	}{
		{"table entry", &model.Command{Type: "engineStop"}, "Relay,1#"},
		{"table entry ignores data", &model.Command{Type: "engineStop", Attributes: model.Attributes{"data": "x"}}, "Relay,1#"},
		{"custom data", &model.Command{Type: "custom", Attributes: model.Attributes{"data": "WHERE#"}}, "WHERE#"},
		{"custom without data", &model.Command{Type: "custom"}, ""},
		{"custom with empty data", &model.Command{Type: "custom", Attributes: model.Attributes{"data": ""}}, ""},
		{"custom with a number", &model.Command{Type: "custom", Attributes: model.Attributes{"data": 5.0}}, ""},
		{"not in the table", &model.Command{Type: "rebootDevice"}, ""},
		{"no command", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CommandText(tt.cmd, texts)
			if tt.want == "" {
				if !errors.Is(err, model.ErrInvalid) || got != "" {
					t.Fatalf("got %q, %v; want an invalid-request error", got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestCommandTextNamesTheType(t *testing.T) {
	_, err := CommandText(&model.Command{Type: "rebootDevice"}, nil)
	var e *model.Error
	if !errors.As(err, &e) || e.Class != model.ClassInvalid || !strings.Contains(e.Description, `"rebootDevice"`) {
		t.Fatalf("err %v; want an invalid-request error naming the type", err)
	}
}

func TestCommandTypes(t *testing.T) {
	texts := map[string]string{"engineStop": "J", "alarmArm": "L"}
	want := []string{"custom", "positionPeriodic", "alarmArm", "engineStop"}
	if got := CommandTypes(texts, "positionPeriodic"); !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for _, typ := range CommandTypes(texts) {
		if _, err := CommandText(&model.Command{Type: typ, Attributes: model.Attributes{"data": "x"}}, texts); err != nil {
			t.Errorf("listed %q does not encode: %v", typ, err)
		}
	}
}

func TestCommandData(t *testing.T) {
	got, err := CommandData(&model.Command{Type: "outputControl", Attributes: model.Attributes{"data": "1"}})
	if err != nil || got != "1" {
		t.Fatalf("got %q, %v", got, err)
	}
	for _, cmd := range []*model.Command{nil, {Type: "outputControl"}, {Type: "outputControl", Attributes: model.Attributes{"data": 1}}} {
		if got, err := CommandData(cmd); !errors.Is(err, model.ErrInvalid) || got != "" {
			t.Errorf("%+v: got %q, %v; want an invalid-request error", cmd, got, err)
		}
	}
}

func TestIntAttribute(t *testing.T) {
	tests := []struct {
		name  string
		value any // absent when nil
		want  int
		ok    bool
	}{
		{"json number", 300.0, 300, true},
		{"negative json number", -5.0, -5, true},
		{"int", 30, 30, true},
		{"int64", int64(7200), 7200, true},
		{"numeric string", "60", 60, true},
		{"signed string", "-5", -5, true},
		{"largest exact json number", float64(1 << 53), 1 << 53, true},
		{"absent", nil, 0, false},
		{"fraction", 1.5, 0, false},
		{"beyond exact json numbers", float64(1<<53) * 2, 0, false},
		{"NaN", math.NaN(), 0, false},
		{"text", "soon", 0, false},
		{"fractional string", "1.5", 0, false},
		{"empty string", "", 0, false},
		{"bool", true, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := &model.Command{Type: "positionPeriodic", Attributes: model.Attributes{}}
			if tt.value != nil {
				cmd.Attributes["frequency"] = tt.value
			}
			got, err := IntAttribute(cmd, "frequency")
			if !tt.ok {
				if !errors.Is(err, model.ErrInvalid) {
					t.Fatalf("got %d, %v; want an invalid-request error", got, err)
				}
				if !strings.Contains(err.Error(), "attributes.frequency") {
					t.Fatalf("error %q does not name the attribute", err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %d, %v; want %d", got, err, tt.want)
			}
		})
	}
	if _, err := IntAttribute(nil, "frequency"); !errors.Is(err, model.ErrInvalid) {
		t.Errorf("nil command: %v", err)
	}
}
