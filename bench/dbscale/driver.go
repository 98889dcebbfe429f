package dbscale

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// cell is what one implementation did on one scenario in one round.
type cell struct {
	// rps is completed requests per second of wall time.
	rps float64
	// p50 is the median latency.
	p50 time.Duration
	// n is the number of requests completed.
	n int
	// cpu is the server's CPU time per request, where it was measured.
	cpu time.Duration
	// estimated is the number of answers whose total was an estimate.
	estimated int
}

// minRequests is the fewest requests a cell completes, however long they
// take: a cell of requests of a second each would otherwise complete a
// dozen in its 1.5 s, and one request more or less would move its rate by
// a tenth.
const minRequests = 32

// load runs fn from workers goroutines for d, and longer if fewer than
// minRequests have completed by then, and measures the throughput and the
// median latency. fn gets its worker's index; the first error ends the
// run.
func load(ctx context.Context, workers int, d time.Duration, fn func(ctx context.Context, worker int) error) (cell, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	latencies := make([][]time.Duration, workers)
	errs := make([]error, workers)
	var completed atomic.Int64
	start := time.Now()
	deadline := start.Add(d)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for (time.Now().Before(deadline) || completed.Load() < minRequests) && ctx.Err() == nil {
				t0 := time.Now()
				if err := fn(ctx, w); err != nil {
					errs[w] = err
					cancel()
					return
				}
				latencies[w] = append(latencies[w], time.Since(t0))
				completed.Add(1)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	for _, err := range errs {
		if err != nil {
			return cell{}, err
		}
	}
	all := slices.Concat(latencies...)
	if len(all) == 0 {
		return cell{}, fmt.Errorf("no request completed in %s", d)
	}
	slices.Sort(all)
	return cell{rps: float64(len(all)) / elapsed.Seconds(), p50: all[len(all)/2], n: len(all)}, nil
}

// median returns the cell of median throughput of the rounds.
func median(cells []cell) cell {
	sorted := slices.Clone(cells)
	slices.SortFunc(sorted, func(a, b cell) int {
		switch {
		case a.rps < b.rps:
			return -1
		case a.rps > b.rps:
			return 1
		}
		return 0
	})
	return sorted[len(sorted)/2]
}
