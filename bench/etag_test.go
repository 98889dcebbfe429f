package bench

import (
	"bytes"
	"net/http/httptest"
	"testing"

	"github.com/asapjs/fiber-template/platform/etag"
)

// BenchmarkWeakTag is what the weak ETag of a list page costs: a SHA-256
// of the answer's body, here the body of the service's users page that
// BenchmarkServiceList requests (20 users), to set against that route's
// time per request.
func BenchmarkWeakTag(b *testing.B) {
	fiberApp, authorization := serviceApp(b, "sqlite:"+b.TempDir()+"/app.db")
	req := httptest.NewRequest("GET", "/api/users?limit=20&role=member", nil)
	req.Header.Set("Authorization", authorization)
	res, err := fiberApp.Test(req, -1)
	if err != nil {
		b.Fatal(err)
	}
	var body bytes.Buffer
	if _, err := body.ReadFrom(res.Body); err != nil {
		b.Fatal(err)
	}
	res.Body.Close()
	b.SetBytes(int64(body.Len()))
	b.ReportAllocs()
	for b.Loop() {
		_ = etag.Weak(body.Bytes())
	}
}
