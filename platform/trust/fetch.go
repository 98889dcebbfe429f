package trust

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// getJSON fetches url and decodes its JSON answer into out, returning the
// answer's headers. Anything but a 200 is an error.
func getJSON(ctx context.Context, client *http.Client, url string, out any) (http.Header, error) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("trust: %s: %w", url, err)
	}
	req.Header.Set("Accept", "application/json")
	return doJSON(client, req, out)
}

// doJSON sends req and decodes its JSON answer, of at most maxBody bytes.
func doJSON(client *http.Client, req *http.Request, out any) (http.Header, error) {
	res, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("trust: %s %s: %w", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("trust: %s %s: status %d", req.Method, req.URL, res.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, maxBody+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("trust: %s %s: %w", req.Method, req.URL, err)
	case len(body) > maxBody:
		return nil, fmt.Errorf("trust: %s %s: an answer over %d bytes", req.Method, req.URL, maxBody)
	}
	if err := json.Unmarshal(body, out); err != nil {
		return nil, fmt.Errorf("trust: %s %s: %w", req.Method, req.URL, err)
	}
	return res.Header, nil
}
