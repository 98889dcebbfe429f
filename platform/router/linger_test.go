package router_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestAnAnswerBeforeTheBodyReachesTheClient checks that a client which
// sends its whole body before reading gets the answer the server gave
// without reading that body (a 413: the declared length is over the
// limit), rather than a connection reset while it writes: the server reads
// and discards the rest for a while before it closes, as net/http does.
func TestAnAnswerBeforeTheBodyReachesTheClient(t *testing.T) {
	t.Parallel()
	base := streamRouter(t)
	const size = 16 << 20 // over the limit, and far past what the sockets' buffers hold
	for i := range 3 {
		t.Run(fmt.Sprint("attempt ", i+1), func(t *testing.T) {
			conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
			head := fmt.Sprintf("POST /api/uploads HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", size)
			if _, err := conn.Write(append([]byte(head), make([]byte, size)...)); err != nil {
				t.Fatalf("the connection was reset while the body was sent: %v", err)
			}
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("no answer after the body was sent: %v", err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestEntityTooLarge {
				t.Fatalf("status %d, want 413", resp.StatusCode)
			}
		})
	}
}
