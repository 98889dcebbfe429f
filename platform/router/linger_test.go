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
	// A server that closes on the unread body resets every attempt; one
	// that lingers lets the client finish, unless a loaded machine keeps
	// it from draining 16 MiB within its linger time: so each of a few
	// attempts may fail, but not all.
	var failures []string
	for range 5 {
		err := sendWholeThenRead(base, size)
		if err == nil {
			return
		}
		failures = append(failures, err.Error())
	}
	t.Fatalf("every attempt failed:\n%s", strings.Join(failures, "\n"))
}

// sendWholeThenRead sends a POST of size bytes whole, then reads the
// answer, which must be a 413.
func sendWholeThenRead(base string, size int) error {
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		return err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	head := fmt.Sprintf("POST /api/uploads HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", size)
	if _, err := conn.Write(append([]byte(head), make([]byte, size)...)); err != nil {
		return fmt.Errorf("the connection was reset while the body was sent: %w", err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return fmt.Errorf("no answer after the body was sent: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		return fmt.Errorf("status %d, want 413", resp.StatusCode)
	}
	return nil
}
