package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/chromedp/chromedp"
)

// WaitTimeout bounds how long WaitForOperations waits for the page to load
// and render, generous enough for a busy machine.
const WaitTimeout = 60 * time.Second

// summariesJS lists the summaries of the operations Swagger UI rendered.
const summariesJS = `Array.from(document.querySelectorAll(".opblock .opblock-summary-description")).map(e => e.textContent.trim())`

// WaitForOperations opens url in the tab of ctx and waits until Swagger UI
// shows an operation (an .opblock element) for every summary in want. On
// failure the error says which summaries the page did show and any error it
// displays, such as a spec that failed to load.
func WaitForOperations(ctx context.Context, url string, want []string) error {
	wantJSON, err := json.Marshal(want)
	if err != nil {
		return fmt.Errorf("browsertest: encode summaries: %w", err)
	}
	allShown := fmt.Sprintf(`(() => { const shown = new Set(%s); return %s.every(s => shown.has(s)); })()`, summariesJS, wantJSON)

	// The first Run on a tab context opens the tab and cancelling its
	// context closes the tab, so open it before bounding the wait.
	if err := chromedp.Run(ctx); err != nil {
		return fmt.Errorf("browsertest: open tab: %w", err)
	}
	waitCtx, cancel := context.WithTimeout(ctx, WaitTimeout)
	defer cancel()
	var done bool
	err = chromedp.Run(waitCtx,
		chromedp.Navigate(url),
		chromedp.Poll(allShown, &done, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(0)),
	)
	if err == nil {
		return nil
	}

	// The tab outlives waitCtx, so it can still say what it shows.
	var shown []string
	var pageErrors string
	diagCtx, cancelDiag := context.WithTimeout(ctx, 5*time.Second)
	defer cancelDiag()
	_ = chromedp.Run(diagCtx,
		chromedp.Evaluate(summariesJS, &shown),
		chromedp.Evaluate(`Array.from(document.querySelectorAll(".errors-wrapper, .loading-container")).map(e => e.textContent.trim()).join(" | ")`, &pageErrors),
	)
	return fmt.Errorf("browsertest: operations %q not all shown at %s (shown: %q, page errors: %q): %w", want, url, shown, pageErrors, err)
}
