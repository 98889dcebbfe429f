package browsertest

import (
	"context"
	"slices"
	"sync"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// RecordRequests records the URL of every request the tab of ctx sends from
// now on, and returns a function listing them so far. Call it before
// navigating.
func RecordRequests(ctx context.Context) func() []string {
	var (
		mu   sync.Mutex
		urls []string
	)
	chromedp.ListenTarget(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			urls = append(urls, e.Request.URL)
			mu.Unlock()
		}
	})
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(urls)
	}
}
