package dashboard

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/prefs"
	"github.com/fleetd/fleetd/app/reports"
)

// chart is a server-drawn SVG chart, laid out here so the template only
// places what it is given. Its Title and Desc are the SVG's accessible
// name and description; the numbers are in the report's table as well.
type chart struct {
	ID, Title, Desc string
	Grid            []gridLine
	Bars            []bar
	Line            string // a line chart's polyline points
	XLabels         []axisLabel
	Legend          []legendItem
}

type gridLine struct {
	Y     float64
	Label string
}

type bar struct {
	X, Y, W, H float64
	Class, Tip string
}

type axisLabel struct {
	X      float64
	Text   string
	Anchor string // the SVG text-anchor: "middle", or "end" for the last of a line chart
}

type legendItem struct{ Class, Label string }

// The charts' drawing box (the viewBox, scaled to the page's width) and
// the plot area within it.
const (
	chartViewBox        = "0 0 640 220"
	plotLeft, plotRight = 48.0, 632.0
	plotTop, plotBottom = 10.0, 194.0
	plotW, plotH        = plotRight - plotLeft, plotBottom - plotTop
	labelY              = 212.0 // the x labels' baseline
	chartLabels         = 8     // at most this many x labels
	maxLinePoints       = 300   // a speed line is drawn through at most this many points
)

// num is a chart's number: one decimal.
func num(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// axis is a value axis from 0 to a round top above high, with its grid
// lines.
type axis struct{ top, step float64 }

func niceAxis(high float64) axis {
	if !(high > 0) {
		high = 1
	}
	raw := high / 4
	exp := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * exp
	for _, f := range []float64{1, 2, 5} {
		if raw <= f*exp {
			step = f * exp
			break
		}
	}
	return axis{top: math.Ceil(high/step-1e-9) * step, step: step}
}

// y is where v sits on the plot.
func (a axis) y(v float64) float64 { return plotBottom - v/a.top*plotH }

func (a axis) grid() []gridLine {
	decimals := 0
	if a.step < 1 {
		decimals = int(-math.Floor(math.Log10(a.step)))
	}
	var out []gridLine
	for i := 0; float64(i)*a.step <= a.top+a.step/1e6; i++ {
		v := float64(i) * a.step
		out = append(out, gridLine{Y: a.y(v), Label: strconv.FormatFloat(v, 'f', decimals, 64)})
	}
	return out
}

// series is one row of bars: a value per day, its class and its name.
type series struct {
	name, class string
	values      []float64
}

// barChart draws one group of bars per label, one bar per series.
func barChart(title, desc, unit string, labels []string, ss []series) chart {
	high := 0.0
	for _, s := range ss {
		for _, v := range s.values {
			high = max(high, v)
		}
	}
	a := niceAxis(high)
	c := chart{Title: title, Desc: desc, Grid: a.grid()}
	slot := plotW / float64(len(labels))
	width := slot * 0.8 / float64(len(ss))
	every := (len(labels) + chartLabels - 1) / chartLabels
	for i, label := range labels {
		x := plotLeft + float64(i)*slot + slot*0.1
		for j, s := range ss {
			v := s.values[i]
			tip := label + ": " + num(v) + " " + unit
			if len(ss) > 1 {
				tip = label + ", " + s.name + ": " + num(v) + " " + unit
			}
			c.Bars = append(c.Bars, bar{X: x + float64(j)*width, Y: a.y(v), W: width, H: plotBottom - a.y(v), Class: s.class, Tip: tip})
		}
		if i%every == 0 {
			c.XLabels = append(c.XLabels, axisLabel{X: x + slot*0.4, Text: label, Anchor: "middle"})
		}
	}
	if len(ss) > 1 {
		for _, s := range ss {
			c.Legend = append(c.Legend, legendItem{Class: s.class, Label: s.name})
		}
	}
	return c
}

// summaryCharts are a vehicle's distance per day and its maximum and
// average speed per day over the report's days (0 on days without
// positions), in the viewer's units.
func summaryCharts(vehicle string, items []reports.SummaryItem, from, to time.Time, show prefs.Display) []chart {
	byDay := map[string]reports.SummaryItem{}
	for _, it := range items {
		byDay[show.DateOf(it.StartTime)] = it
	}
	var days []string
	dist, top, avg := series{"Distance", "bar-dist", nil}, series{"Maximum", "bar-max", nil}, series{"Average", "bar-avg", nil}
	best, bestDay := 0.0, ""
	for day := show.DayStart(from); day.Before(to); day = day.AddDate(0, 0, 1) {
		label := show.DateOf(day)
		it := byDay[label]
		days = append(days, label)
		d := show.DistanceValue(it.Distance)
		dist.values = append(dist.values, d)
		top.values = append(top.values, show.SpeedValue(it.MaxSpeed))
		avg.values = append(avg.values, show.SpeedValue(it.AverageSpeed))
		if d > best {
			best, bestDay = d, label
		}
	}
	span := "from " + days[0] + " to " + days[len(days)-1]
	distDesc := "One bar per day " + span + "."
	if bestDay != "" {
		distDesc += " The longest day was " + bestDay + " with " + show.DistanceText(byDay[bestDay].Distance) + "."
	}
	speedDesc := "Two bars per day " + span + ": the highest speed and the average speed while the engine ran (0 without engine hours)."
	return []chart{
		barChart(vehicle+": distance per day ("+show.DistanceLabel()+")", distDesc+" The table lists every day's numbers.",
			show.DistanceLabel(), shortDays(days), []series{dist}),
		barChart(vehicle+": speed per day ("+show.SpeedLabel()+")", speedDesc+" The table lists every day's numbers.",
			show.SpeedLabel(), shortDays(days), []series{top, avg}),
	}
}

// shortDays labels days as month-day ("11-24") when they are in one
// year, so the axis stays readable.
func shortDays(days []string) []string {
	if days[0][:4] != days[len(days)-1][:4] {
		return days
	}
	out := make([]string, len(days))
	for i, d := range days {
		out[i] = d[5:]
	}
	return out
}

// timedValue is a value at an instant (a speed in the viewer's unit).
type timedValue struct {
	At time.Time
	V  float64
}

// speedLine draws a vehicle's speed over the route's time, at most
// maxLinePoints points: each the highest speed of its stretch of time, so
// peaks stay visible.
func speedLine(vehicle string, points []timedValue, show prefs.Display) chart {
	start, end := points[0].At, points[len(points)-1].At
	span := max(end.Sub(start), time.Second)
	buckets := make([]*timedValue, min(maxLinePoints, len(points)))
	peak := points[0]
	for _, p := range points {
		i := min(int(float64(p.At.Sub(start))/float64(span)*float64(len(buckets))), len(buckets)-1)
		if b := buckets[i]; b == nil || p.V > b.V {
			buckets[i] = &timedValue{p.At, p.V}
		}
		if p.V > peak.V {
			peak = p
		}
	}
	a := niceAxis(peak.V)
	x := func(t time.Time) float64 { return plotLeft + float64(t.Sub(start))/float64(span)*plotW }
	var line strings.Builder
	for _, b := range buckets {
		if b != nil {
			line.WriteString(num(x(b.At)) + "," + num(a.y(b.V)) + " ")
		}
	}
	layout := "15:04"
	if show.TwelveHour {
		layout = "3:04 PM"
	}
	if span > 20*time.Hour {
		layout = "01-02 " + layout
	}
	c := chart{Title: vehicle + ": speed (" + show.SpeedLabel() + ")", Grid: a.grid(), Line: strings.TrimSpace(line.String()),
		Desc: "Speed from " + show.TimeText(start) + " to " + show.TimeText(end) + "; the highest was " +
			num(peak.V) + " " + show.SpeedLabel() + " at " + show.TimeText(peak.At) + ". The table lists every position's speed."}
	for i := 0; i <= 4; i++ {
		t, anchor := start.Add(span*time.Duration(i)/4), "middle"
		if i == 4 {
			anchor = "end"
		}
		c.XLabels = append(c.XLabels, axisLabel{X: x(t), Text: t.In(show.Zone).Format(layout), Anchor: anchor})
	}
	return c
}
