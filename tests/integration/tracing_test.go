package integration

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"golang.org/x/crypto/bcrypt"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

// newTracedAPI is the service on dsn as cmd/api builds it with tracing on,
// its spans kept in memory and its log lines in the returned buffer.
func newTracedAPI(t *testing.T, dsn string) (*userAPI, *tracetest.InMemoryExporter, *servicetest.Buffer) {
	t.Helper()
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db := database.Trace(openDB(t, dsn), tp)
	if err := migrations.Up(ctx, db); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	logs := &servicetest.Buffer{}
	r, err := app.NewWithOptions(db, router.Config{
		BasePath:       "/api",
		JWTSecret:      userTestSecret,
		TracerProvider: tp,
		LogRequests:    true,
		Logger:         slog.New(slog.NewTextHandler(logs, nil)),
	}, app.Options{BcryptCost: bcrypt.MinCost})
	if err != nil {
		t.Fatalf("build service: %v", err)
	}
	return &userAPI{r: r, db: db, passwords: map[string]bool{}}, spans, logs
}

// serverSpans are the server spans among spans.
func serverSpans(spans tracetest.SpanStubs) tracetest.SpanStubs {
	var out tracetest.SpanStubs
	for _, s := range spans {
		if s.SpanKind == trace.SpanKindServer {
			out = append(out, s)
		}
	}
	return out
}

// hasAttribute tells whether s has the attribute key.
// attributeOf is the value of the span's attribute key as text, "" when
// it has none.
func attributeOf(s tracetest.SpanStub, key attribute.Key) string {
	for _, kv := range s.Attributes {
		if kv.Key == key {
			return kv.Value.String()
		}
	}
	return ""
}

func hasAttribute(s tracetest.SpanStub, key attribute.Key) bool {
	for _, kv := range s.Attributes {
		if kv.Key == key {
			return true
		}
	}
	return false
}

func TestTracing(t *testing.T) {
	forEachUserBackend(t, func(t *testing.T, newDSN func(*testing.T) string) {
		a, spans, logs := newTracedAPI(t, newDSN(t))
		if n := len(spans.GetSpans()); n != 0 {
			t.Errorf("migrating, outside any trace, made %d spans, want 0", n)
		}
		id, token := a.memberToken(t, "traced@example.com")
		spans.Reset()

		const (
			incomingTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
			incomingSpan  = "00f067aa0ba902b7"
		)
		res := a.send(t, req{method: http.MethodGet, path: "/api/users/" + itoa(id), token: token,
			header: map[string]string{"traceparent": "00-" + incomingTrace + "-" + incomingSpan + "-01"}})
		if res.status != http.StatusOK {
			t.Fatalf("GET /api/users/%d = %d: %s", id, res.status, res.body)
		}
		got := spans.GetSpans()
		servers := serverSpans(got)
		if len(servers) != 1 {
			t.Fatalf("%d server spans for one request, want 1: %v", len(servers), got)
		}
		server := servers[0]

		t.Run("the server span is named by the route template", func(t *testing.T) {
			if server.Name != "/api/users/:id" {
				t.Errorf("server span named %q, want /api/users/:id", server.Name)
			}
		})

		t.Run("an incoming traceparent is honoured", func(t *testing.T) {
			if tid := server.SpanContext.TraceID().String(); tid != incomingTrace {
				t.Errorf("trace id %s, want the caller's %s", tid, incomingTrace)
			}
			if pid := server.Parent.SpanID().String(); pid != incomingSpan || !server.Parent.IsRemote() {
				t.Errorf("parent span %s (remote %v), want the caller's %s", pid, server.Parent.IsRemote(), incomingSpan)
			}
		})

		t.Run("the answer carries the server span's traceparent", func(t *testing.T) {
			want := "00-" + incomingTrace + "-" + server.SpanContext.SpanID().String() + "-01"
			if tp := res.header.Get("traceparent"); tp != want {
				t.Errorf("traceparent %q, want %q", tp, want)
			}
		})

		t.Run("each query is a child span of the request's", func(t *testing.T) {
			var queries int
			for _, s := range got {
				if s.SpanKind != trace.SpanKindClient {
					continue
				}
				queries++
				if s.Parent.SpanID() != server.SpanContext.SpanID() || s.SpanContext.TraceID() != server.SpanContext.TraceID() {
					t.Errorf("query span %q is not a child of the server span", s.Name)
				}
				if !hasAttribute(s, "db.system") || !hasAttribute(s, "db.statement") {
					t.Errorf("query span %q has no db.system or db.statement: %v", s.Name, s.Attributes)
				}
			}
			if queries == 0 {
				t.Errorf("no query span under the request: %v", got)
			}
		})

		t.Run("the request log line has the trace id", func(t *testing.T) {
			var line string
			for l := range strings.Lines(logs.String()) {
				if strings.Contains(l, "msg=request") && strings.Contains(l, "path=/api/users/"+itoa(id)) {
					line = l
				}
			}
			if !strings.Contains(line, "trace_id="+incomingTrace) {
				t.Errorf("request log line without trace_id=%s: %q", incomingTrace, line)
			}
		})

		t.Run("a request without traceparent starts a trace; an unmatched one shares a name", func(t *testing.T) {
			spans.Reset()
			a.send(t, req{method: http.MethodGet, path: "/no/such/path/42"})
			servers := serverSpans(spans.GetSpans())
			if len(servers) != 1 {
				t.Fatalf("%d server spans, want 1", len(servers))
			}
			if s := servers[0]; s.Name != "unmatched" || s.Parent.IsValid() {
				t.Errorf("span %q with parent %v, want unmatched and a new trace", s.Name, s.Parent.SpanID())
			}
		})
	})
}
