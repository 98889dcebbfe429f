package dbscale

import (
	"context"
	"math"
	"testing"
	"time"
)

// TestCPUGaps checks the CPU table's two differences between the service
// and a baseline: of their medians over the rounds, and paired by round
// (the median and quartiles of each round's difference), where an even
// count's median is the mean of its middle two.
func TestCPUGaps(t *testing.T) {
	us := func(vs ...int) []cell {
		cells := make([]cell, len(vs))
		for i, v := range vs {
			cells[i] = cell{cpu: time.Duration(v) * time.Microsecond}
		}
		return cells
	}
	// spreadOf is a spread in µs, which may have a half.
	spreadOf := func(lower, median, upper float64) spread {
		d := func(v float64) time.Duration { return time.Duration(v * float64(time.Microsecond)) }
		return spread{d(lower), d(median), d(upper)}
	}
	tests := []struct {
		name         string
		service, raw []cell
		medianGap    time.Duration
		paired       spread
	}{
		{
			name:    "one round",
			service: us(130), raw: us(110),
			medianGap: 20 * time.Microsecond, paired: spreadOf(20, 20, 20),
		},
		{
			// Each round slowed both of its cells by as much: the
			// difference of the medians is the rounds' difference.
			name:    "rounds slowed alike",
			service: us(110, 160, 115, 190), raw: us(100, 150, 105, 180),
			medianGap: 10 * time.Microsecond, paired: spreadOf(10, 10, 10),
		},
		{
			// Round 3 slowed raw alone, round 4 the service alone: the
			// rounds' differences are 20, 21, −38, 60 and 23 µs.
			name:    "a cell slowed alone",
			service: us(120, 121, 122, 160, 123), raw: us(100, 100, 160, 100, 100),
			medianGap: 22 * time.Microsecond, paired: spreadOf(20, 21, 23),
		},
		{
			name:    "an even count",
			service: us(110, 120, 130, 140), raw: us(100, 100, 100, 100),
			medianGap: 25 * time.Microsecond, paired: spreadOf(17.5, 25, 32.5),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := medianCPU(tt.service) - medianCPU(tt.raw); got != tt.medianGap {
				t.Errorf("difference of the medians %v, want %v", got, tt.medianGap)
			}
			if got := pairedGap(tt.service, tt.raw); got != tt.paired {
				t.Errorf("paired %v, want %v", got, tt.paired)
			}
		})
	}
}

// TestPairedRatio checks the goals' ratio paired by round: the median of
// each round's ratio, the mean of the middle two for an even count.
func TestPairedRatio(t *testing.T) {
	rates := func(vs ...float64) []cell {
		cells := make([]cell, len(vs))
		for i, v := range vs {
			cells[i] = cell{rps: v}
		}
		return cells
	}
	tests := []struct {
		name          string
		service, base []cell
		want          float64
	}{
		{"one round", rates(900), rates(1000), 0.9},
		// The rounds' ratios are 0.5, 2 and 11/12; the medians' is 1.1.
		{"an odd count", rates(500, 2000, 1100), rates(1000, 1000, 1200), 1100.0 / 1200},
		{"an even count", rates(800, 1000, 1200, 4000), rates(1000, 1000, 1000, 1000), 1.1},
	}
	for _, tt := range tests {
		if got := pairedRatio(tt.service, tt.base); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestACellCompletesItsFewestRequests: a cell whose requests outlast its
// duration runs on until minRequests have completed, so that its rate is
// not a count of a handful; a cell of quick requests runs its duration.
func TestACellCompletesItsFewestRequests(t *testing.T) {
	ctx := context.Background()
	slow := func(context.Context, int) error { time.Sleep(20 * time.Millisecond); return nil }
	c, err := load(ctx, 8, time.Millisecond, slow)
	if err != nil {
		t.Fatal(err)
	}
	if c.n < minRequests || c.n >= minRequests+8 {
		t.Errorf("a cell of slow requests completed %d, want %d to %d", c.n, minRequests, minRequests+7)
	}
	quick := func(context.Context, int) error { time.Sleep(time.Millisecond); return nil }
	start := time.Now()
	if c, err = load(ctx, 8, 200*time.Millisecond, quick); err != nil {
		t.Fatal(err)
	}
	if elapsed := time.Since(start); c.n < 4*minRequests || elapsed < 200*time.Millisecond {
		t.Errorf("a cell of quick requests completed %d in %s, want its 200ms and more than %d", c.n, elapsed, 4*minRequests)
	}
}
