package servicetest

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
)

// Response is an answer read in full.
type Response struct {
	// Status is the answer's status code.
	Status int
	// Header is the answer's header.
	Header http.Header
	// Body is the answer's whole body.
	Body []byte
}

// doTimeout bounds a request Do sends: far above any answer a test waits
// for, so that a handler that never answers (a deadlock, or a write path
// broken on purpose by mutation testing) fails its test within a minute
// instead of hanging the package until go test's own timeout.
const doTimeout = time.Minute

// Do sends req through app in process (app.Test, bounded by doTimeout)
// and reads the answer in full.
func Do(t testing.TB, app *fiber.App, req *http.Request) Response {
	t.Helper()
	res, err := app.Test(req, int(doTimeout/time.Millisecond))
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	return read(t, req, res)
}

// client is the HTTP client of Fetch: bounded, so that a server that stops
// answering fails the test instead of hanging it.
var client = &http.Client{Timeout: 30 * time.Second}

// Fetch sends req over a real connection and reads the answer in full.
func Fetch(t testing.TB, req *http.Request) Response {
	t.Helper()
	res, err := Exchange(req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Exchange is Fetch for any goroutine: it returns what fails instead of
// ending the test.
func Exchange(req *http.Request) (Response, error) {
	res, err := client.Do(req)
	if err != nil {
		return Response{}, fmt.Errorf("%s %s: %w", req.Method, req.URL, err)
	}
	return readAll(req, res)
}

func read(t testing.TB, req *http.Request, res *http.Response) Response {
	t.Helper()
	r, err := readAll(req, res)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// readAll reads the answer res to req in full and closes its body.
func readAll(req *http.Request, res *http.Response) (Response, error) {
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return Response{}, fmt.Errorf("%s %s: read body: %w", req.Method, req.URL, err)
	}
	return Response{Status: res.StatusCode, Header: res.Header, Body: body}, nil
}

// MediaType is the response's media type without parameters.
func (r Response) MediaType(t testing.TB) string {
	t.Helper()
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		t.Fatalf("Content-Type %q: %v", r.Header.Get("Content-Type"), err)
	}
	return mt
}

// Decode decodes the JSON body into a T or fails t.
func Decode[T any](t testing.TB, body []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return v
}
