package router

import "testing"

// BenchmarkHeadChecks is what checking a request's head for the faults
// parsers disagree on costs, on the head of a typical API request.
func BenchmarkHeadChecks(b *testing.B) {
	raw := []byte("GET /api/users?limit=20&cursor=eyJrIjpbIjIwMjYtMTEtMjhUMTY6NTU6MjguMDAwWiIsMTIzNDVdfQ HTTP/1.1\r\n" +
		"Host: api.example.com\r\n" +
		"User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36\r\n" +
		"Accept: application/json\r\n" +
		"Accept-Encoding: gzip, deflate, br\r\n" +
		"Authorization: Bearer eyJhbGciOiJFZERTQSIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJzdWIiOiIxMjM0NSIsInJvbGUiOiJhZG1pbiIsImlhdCI6MTcwMDAwMDAwMCwiZXhwIjoxNzAwMDAwOTAwfQ.c2lnbmF0dXJlc2lnbmF0dXJlc2lnbmF0dXJlc2lnbmF0dXJlc2lnbmF0dXJl\r\n" +
		"If-None-Match: W/\"q2Yc9Dm0Jx3bKmYQ4bqMvA\"\r\n" +
		"\r\n")
	raw = raw[len("GET /api/users?limit=20&cursor=eyJrIjpbIjIwMjYtMTEtMjhUMTY6NTU6MjguMDAwWiIsMTIzNDVdfQ HTTP/1.1\r\n"):]
	for b.Loop() {
		if headerFault(raw, true, false) != "" {
			b.Fatal("a sound head refused")
		}
	}
}
