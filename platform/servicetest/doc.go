// Package servicetest holds the helpers for testing a service built on the
// platform through real HTTP: a request sent through a Fiber app (app.Test)
// or over a loopback connection and read in full, assertions on RFC 9457
// problem answers, a Link header read by relation, an access token signed
// as a client holding the key could, a throwaway SQLite database, and a
// log sink safe for a server's goroutines.
//
// Every helper takes the test's testing.TB and fails it on a broken
// precondition, so a test reads as the requests it sends and the answers
// it expects:
//
//	app := newService(t)
//	res := servicetest.Do(t, app, httptest.NewRequest("GET", "/api/users?page=0", nil))
//	if res.Status != http.StatusOK {
//		t.Fatalf("status %d: %s", res.Status, res.Body)
//	}
//	next := servicetest.Links(res.Header.Get("Link"))["next"]
//
// It is imported by tests only.
package servicetest
