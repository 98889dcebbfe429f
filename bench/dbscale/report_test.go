package dbscale

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// report prints, per size, the median of the rounds of every cell and the
// ratios, then the goals, and reports the goals' ratios as metrics.
func report(b *testing.B, sizes []*size, st settings) {
	var out strings.Builder
	names := implNames[st.transport]
	fmt.Fprintf(&out, "\n%s transport, %d workers, %d rounds of %s per cell, medians of the rounds; requests/s (p50)\n",
		st.transport, st.workers, st.rounds, st.cell)
	for _, sz := range sizes {
		fmt.Fprintf(&out, "\n%d users (deep page: %d)\n\n", sz.rows, deepPage(sz.rows))
		fmt.Fprintf(&out, "| scenario | %s | %s | %s | %s | %s | %s | service ÷ today | service ÷ raw | service ÷ raw on Fiber | service ÷ huma | service ÷ sqlx |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
			names[implToday], names[implService], names[implRaw], names[implRawFiber], names[implHuma], names[implSQLx])
		marked := false
		for i, sc := range sz.scenarios {
			m := sz.medians(i)
			fmt.Fprintf(&out, "| %s | %s | %s | %s | %s | %s | %s | %.1f× | %.2f | %.2f | %.2f | %.2f |\n", sc.name,
				rate(m[implToday]), rate(m[implService]), rate(m[implRaw]), rate(m[implRawFiber]), rate(m[implHuma]), rate(m[implSQLx]),
				m[implService].rps/m[implToday].rps, m[implService].rps/m[implRaw].rps, m[implService].rps/m[implRawFiber].rps,
				m[implService].rps/m[implHuma].rps, m[implService].rps/m[implSQLx].rps)
			for _, c := range m {
				marked = marked || c.estimated > 0
			}
		}
		if marked {
			out.WriteString(estimatedNote)
		}
		if st.transport == transportProcess {
			sz.reportCPU(b, &out, names)
		}
	}
	largest, smallest := sizes[len(sizes)-1], sizes[0]
	page0, q, cursor := 0, 2, 4
	goals := []struct {
		name, unit string
		value      float64
		met        bool
	}{
		{"page 0 ÷ today", "page0-x-today", ratio(largest, page0, implService, largest, page0, implToday), false},
		{"q ÷ today", "q-x-today", ratio(largest, q, implService, largest, q, implToday), false},
		{"deep cursor p50 ÷ page 0 p50", "cursor-p50-x-page0", p50Ratio(largest, cursor, largest, page0), false},
		{fmt.Sprintf("page 0 p50 at %d ÷ at %d", largest.rows, smallest.rows), "page0-p50-x-smallest", p50Ratio(largest, page0, smallest, page0), false},
	}
	goals[0].met, goals[1].met = goals[0].value >= 100, goals[1].value >= 100
	goals[2].met, goals[3].met = goals[2].value <= 1.5, goals[3].value <= 2
	fmt.Fprintf(&out, "\nGoals at %d users:\n\n", largest.rows)
	for _, g := range goals {
		fmt.Fprintf(&out, "- %s: %.2f (%s)\n", g.name, g.value, verdict(g.met))
		b.ReportMetric(g.value, g.unit)
	}
	reportCostGoals(b, &out, sizes, st.transport == transportProcess)
	fmt.Print(out.String())
}

// A costGoal is a least ratio of the service's requests a second to
// another implementation's, on some scenarios (every one when none is
// named) at every size: a goal of the request-cost work.
type costGoal struct {
	base      int
	name      string
	least     float64
	scenarios []string
	unit      string
}

// costGoals are the ratios the request-cost work aims at: within 15% of
// raw pgx on the cursor pages and 10% on page 0, role and q, and ahead of
// the first version's strategy and of each peer everywhere.
var costGoals = []costGoal{
	{implRaw, "raw pgx, cursor pages", 0.85, []string{"deep, cursor", "deep, cursor, -created_at"}, "service-x-raw-cursor-min"},
	{implRaw, "raw pgx, page 0, role and q", 0.90, []string{"page 0", "role=admin", "q=smith"}, "service-x-raw-list-min"},
	{implToday, "today's strategy", 1, nil, "service-x-today-min"},
	{implHuma, "huma + Bun", 1, nil, "service-x-huma-min"},
	{implSQLx, "Fiber + sqlx", 1, nil, "service-x-sqlx-min"},
}

// maxCPUGap is the most CPU time a request the service may spend beyond
// raw pgx's on the deep cursor page.
const maxCPUGap = 25 * time.Microsecond

// reportCostGoals prints each cost goal's lowest ratio, of the medians and
// paired by round (the median of each round's ratio), with where it is,
// and, where the CPU was measured (cpu), the deep cursor page's CPU gap at
// each size, each judged met or missed, and reports the lowest ratios as
// metrics.
func reportCostGoals(b *testing.B, out *strings.Builder, sizes []*size, cpu bool) {
	out.WriteString("\nRequest cost goals, of the medians and paired by round:\n\n")
	for _, g := range costGoals {
		lowest, lowestPaired := 1e9, 1e9
		var at, atPaired string
		for _, sz := range sizes {
			for i, sc := range sz.scenarios {
				if g.scenarios != nil && !slices.Contains(g.scenarios, sc.name) {
					continue
				}
				where := fmt.Sprintf("%d users, %s", sz.rows, sc.name)
				if r := ratio(sz, i, implService, sz, i, g.base); r < lowest {
					lowest, at = r, where
				}
				if r := pairedRatio(sz.cells[i][implService], sz.cells[i][g.base]); r < lowestPaired {
					lowestPaired, atPaired = r, where
				}
			}
		}
		fmt.Fprintf(out, "- service ÷ %s ≥ %.2f: lowest %.2f (%s), %s; paired %.2f (%s), %s\n",
			g.name, g.least, lowest, at, verdict(lowest >= g.least), lowestPaired, atPaired, verdict(lowestPaired >= g.least))
		b.ReportMetric(lowest, g.unit)
		b.ReportMetric(lowestPaired, g.unit+"-paired")
	}
	if !cpu {
		return
	}
	for _, sz := range sizes {
		i := slices.IndexFunc(sz.scenarios, func(sc scenario) bool { return sc.name == "deep, cursor" })
		gap := medianCPU(sz.cells[i][implService]) - medianCPU(sz.cells[i][implRaw])
		paired := pairedGap(sz.cells[i][implService], sz.cells[i][implRaw])
		fmt.Fprintf(out, "- CPU a request on the deep cursor page at %d users, service − raw pgx ≤ %s: %s, %s; paired %s, %s\n",
			sz.rows, micros(maxCPUGap), micros(gap), verdict(gap <= maxCPUGap), paired, verdict(paired.median <= maxCPUGap))
	}
}

// verdict writes whether a goal was met.
func verdict(met bool) string {
	if met {
		return "met"
	}
	return "missed"
}

// pairedRatio is the median over the rounds of a's requests a second over
// b's in the same round.
func pairedRatio(a, b []cell) float64 {
	r := make([]float64, min(len(a), len(b)))
	for i := range r {
		r[i] = a[i].rps / b[i].rps
	}
	slices.Sort(r)
	return quantile(r, 0.5)
}

func (sz *size) medians(scenario int) [implCount]cell {
	var m [implCount]cell
	for impl := range implCount {
		m[impl] = median(sz.cells[scenario][impl])
	}
	return m
}

func ratio(a *size, ai, aimpl int, b *size, bi, bimpl int) float64 {
	return a.medians(ai)[aimpl].rps / b.medians(bi)[bimpl].rps
}

func p50Ratio(a *size, ai int, b *size, bi int) float64 {
	return float64(a.medians(ai)[implService].p50) / float64(b.medians(bi)[implService].p50)
}

func rate(c cell) string {
	s := fmt.Sprintf("%.0f (%s)", c.rps, c.p50.Round(10*time.Microsecond))
	if c.estimated > 0 {
		s += " " + estimatedMark
	}
	return s
}

// estimatedMark follows the rate of a cell some answers of which had an
// estimated total; estimatedNote says what it means under a table that
// has one.
const (
	estimatedMark = "†"
	estimatedNote = "\n† some answers of the cell had an estimated total: that implementation's count had run out of its budget and was estimated for a minute, which costs less than counting.\n"
)

// reportCPU prints the median CPU time each child spent per request, and
// the service's difference from raw pgx on net/http and on raw Fiber, both
// as the difference of the medians and paired by round (the median of each
// round's difference, with its quartiles), and reports the deep cursor
// page's differences as metrics. The cells of one scenario run one after
// the other in a round, so a round that found the machine busy slows both
// of a pair: pairing leaves that out where a difference of medians keeps
// it.
func (sz *size) reportCPU(b *testing.B, out *strings.Builder, names [implCount]string) {
	fmt.Fprintf(out, "\nCPU time of the serving process per request, %d users\n\n| scenario | %s | %s | %s | %s | %s | %s | service − raw | service − raw on Fiber | service − raw, paired by round | service − raw on Fiber, paired by round |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
		sz.rows, names[implToday], names[implService], names[implRaw], names[implRawFiber], names[implHuma], names[implSQLx])
	for i, sc := range sz.scenarios {
		var cpu [implCount]time.Duration
		for impl := range implCount {
			cpu[impl] = medianCPU(sz.cells[i][impl])
		}
		raw, rawFiber := pairedGap(sz.cells[i][implService], sz.cells[i][implRaw]), pairedGap(sz.cells[i][implService], sz.cells[i][implRawFiber])
		fmt.Fprintf(out, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", sc.name, micros(cpu[implToday]), micros(cpu[implService]),
			micros(cpu[implRaw]), micros(cpu[implRawFiber]), micros(cpu[implHuma]), micros(cpu[implSQLx]),
			micros(cpu[implService]-cpu[implRaw]), micros(cpu[implService]-cpu[implRawFiber]), raw, rawFiber)
		if sc.name == "deep, cursor" {
			b.ReportMetric(float64(cpu[implService]-cpu[implRaw])/float64(time.Microsecond), fmt.Sprintf("cpu-gap-µs/%d-rows", sz.rows))
			b.ReportMetric(float64(cpu[implService]-cpu[implRawFiber])/float64(time.Microsecond), fmt.Sprintf("cpu-gap-fiber-µs/%d-rows", sz.rows))
			b.ReportMetric(float64(raw.median)/float64(time.Microsecond), fmt.Sprintf("cpu-gap-paired-µs/%d-rows", sz.rows))
			b.ReportMetric(float64(rawFiber.median)/float64(time.Microsecond), fmt.Sprintf("cpu-gap-fiber-paired-µs/%d-rows", sz.rows))
		}
	}
}

// medianCPU is the median of the cells' CPU time per request.
func medianCPU(cells []cell) time.Duration {
	cpu := make([]time.Duration, len(cells))
	for i, c := range cells {
		cpu[i] = c.cpu
	}
	return quantiles(cpu).median
}

// spread is the median of some durations and their lower and upper
// quartiles.
type spread struct{ lower, median, upper time.Duration }

// quantiles is the spread of ds, which it sorts.
func quantiles(ds []time.Duration) spread {
	slices.Sort(ds)
	return spread{lower: quantile(ds, 0.25), median: quantile(ds, 0.5), upper: quantile(ds, 0.75)}
}

// quantile is the q-quantile of sorted, not empty, interpolated linearly
// between the two values it falls between: the median of an even count is
// the mean of the middle two.
func quantile[T ~int64 | ~float64](sorted []T, q float64) T {
	pos := q * float64(len(sorted)-1)
	i := int(pos)
	if i+1 >= len(sorted) {
		return sorted[i]
	}
	return sorted[i] + T((pos-float64(i))*float64(sorted[i+1]-sorted[i]))
}

// pairedGap is the spread over the rounds of a's CPU time per request less
// b's in the same round.
func pairedGap(a, b []cell) spread {
	d := make([]time.Duration, min(len(a), len(b)))
	for r := range d {
		d[r] = a[r].cpu - b[r].cpu
	}
	return quantiles(d)
}

// String writes the spread as its median and, in brackets, its quartiles.
func (s spread) String() string {
	return fmt.Sprintf("%s (%s to %s)", micros(s.median), micros(s.lower), micros(s.upper))
}

// micros writes d in microseconds, to one decimal.
func micros(d time.Duration) string {
	return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond))
}
