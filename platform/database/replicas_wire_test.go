package database

import (
	"context"
	"database/sql"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// TestReplicaFailoverOverTheWire fails a replica the ways a PostgreSQL
// server fails, through pgx and database/sql as the service runs them:
// refusing or not answering connections, ending them or failing the
// query. Each read that could not be served by the replica is served by
// the primary; a query error goes back to the caller.
func TestReplicaFailoverOverTheWire(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		replica func(t *testing.T) string
		want    onReplica
		is      func(error) bool
	}{
		{"a replica that refuses connections", func(t *testing.T) string { return pgURL(closedPort(t)) }, failsOver, nil},
		{"a replica that never answers a connection", func(t *testing.T) string { return pgURL(silentPort(t)) }, failsOver, nil},
		{"a replica starting up (57P03)", fakePG{startup: "57P03"}.dsnOf, failsOver, nil},
		{"a replica shut down by its administrator (57P01)", fakePG{answer: answerFatal, code: "57P01"}.dsnOf, failsOver, nil},
		{"a replica crashing (57P02)", fakePG{answer: answerFatal, code: "57P02"}.dsnOf, failsOver, nil},
		{"a replica ending the connection for a protocol violation (08P01)", fakePG{answer: answerFatal, code: "08P01"}.dsnOf, failsOver, nil},
		{"a replica that drops the connection", fakePG{answer: answerClose}.dsnOf, failsOver, nil},
		{"a replica that resets the connection", fakePG{answer: answerReset}.dsnOf, failsOver, nil},
		{"a replica's statement_timeout (57014)", fakePG{answer: answerError, code: "57014"}.dsnOf, passesOn, hasCode("57014")},
		{"a syntax error (42601)", fakePG{answer: answerError, code: "42601"}.dsnOf, passesOn, hasCode("42601")},
		{"a unique violation (23505)", fakePG{answer: answerError, code: "23505"}.dsnOf, passesOn, hasCode("23505")},
		{"an undefined table (42P01)", fakePG{answer: answerError, code: "42P01"}.dsnOf, passesOn, hasCode("42P01")},
	}
	pool := Pool{ConnectTimeout: 200 * time.Millisecond}
	for _, tc := range cases {
		for _, rd := range reads() {
			t.Run(tc.name+": "+rd.name+" "+tc.want.verb(), func(t *testing.T) {
				t.Parallel()
				primary := fakePG{value: "1"}.start(t)
				db, r := replicated(t, openPG(t, primary.dsn, pool), openPG(t, tc.replica(t), pool))
				err := rd.run(context.Background(), db)
				wantFailover(t, r, tc.want, err, primary.statements.Load(), tc.is)
			})
		}
	}

	t.Run("a replica that answers serves the read", func(t *testing.T) {
		t.Parallel()
		primary, replica := fakePG{value: "1"}.start(t), fakePG{value: "2"}.start(t)
		db, r := replicated(t, openPG(t, primary.dsn, pool), openPG(t, replica.dsn, pool))
		var v string
		if err := db.NewSelect().ColumnExpr("1").Scan(context.Background(), &v); err != nil || v != "2" {
			t.Fatalf("the read answered %q, %v; want the replica's 2", v, err)
		}
		if s := r.Stats()[0]; !s.Healthy || s.Reads != 1 || s.Failovers != 0 || primary.statements.Load() != 0 {
			t.Errorf("replica stats %+v, %d statements on the primary; want the replica to serve alone", s, primary.statements.Load())
		}
	})
}

// openPG opens the pool of the PostgreSQL server at dsn as the service
// does, closed when t ends; it connects at the first query.
func openPG(t *testing.T, dsn string, p Pool) *sql.DB {
	t.Helper()
	db, err := openPostgres(dsn, p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// dsnOf starts s and returns its DSN.
func (s fakePG) dsnOf(t *testing.T) string { return s.start(t).dsn }

// pgAnswer is what a fakePG answers to a query.
type pgAnswer int

const (
	answerRow     pgAnswer = iota // one row holding the server's value
	answerError                   // an ERROR with the code; the connection stays usable
	answerFatal                   // a FATAL with the code, then the connection closes
	answerClose                   // the connection closes without a word
	answerReset                   // the connection is reset (a TCP RST)
	answerNothing                 // no answer at all, until the client hangs up
)

// fakePG is a PostgreSQL server on a loopback port that speaks just enough
// of the protocol for pgx, so that what a client sees of its failures is
// what pgx itself makes of a server's answers. It lets anyone in and
// answers every statement with one text row, unless told otherwise.
type fakePG struct {
	// value is the text of the one row of every answer.
	value string
	// startup, if set, is the code of a FATAL that refuses every
	// connection at startup, as a server starting up or out of
	// connection slots does.
	startup string
	// answer is what every statement gets; code is the SQLSTATE of
	// answerError and answerFatal.
	answer pgAnswer
	code   string
}

// fakePGServer is a running fakePG.
type fakePGServer struct {
	cfg fakePG
	dsn string
	// statements counts the statements the server was asked to run.
	statements atomic.Int64
}

// start serves s on a loopback port until t ends.
func (s fakePG) start(t *testing.T) *fakePGServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("fake PostgreSQL: listen: %v", err)
	}
	srv := &fakePGServer{cfg: s, dsn: pgURL(ln.Addr().String())}
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		conns  = map[net.Conn]bool{}
		closed bool
	)
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			if closed {
				mu.Unlock()
				_ = c.Close()
				return
			}
			conns[c] = true
			mu.Unlock()
			wg.Go(func() {
				defer c.Close()
				srv.serve(c)
			})
		}
	})
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		closed = true
		for c := range conns {
			_ = c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return srv
}

// serve speaks to one client until it or the answer ends the connection.
func (s *fakePGServer) serve(c net.Conn) {
	b := pgproto3.NewBackend(c, c)
	msg, err := b.ReceiveStartupMessage()
	if err != nil {
		return
	}
	if _, ok := msg.(*pgproto3.StartupMessage); !ok {
		return // a cancel request: nothing runs long enough to cancel
	}
	if s.cfg.startup != "" {
		b.Send(&pgproto3.ErrorResponse{Severity: "FATAL", Code: s.cfg.startup, Message: "refused by the fake server"})
		_ = b.Flush()
		return
	}
	b.Send(&pgproto3.AuthenticationOk{})
	for _, p := range [][2]string{{"server_version", "17.0"}, {"client_encoding", "UTF8"}, {"standard_conforming_strings", "on"}} {
		b.Send(&pgproto3.ParameterStatus{Name: p[0], Value: p[1]})
	}
	b.Send(&pgproto3.ReadyForQuery{TxStatus: 'I'})
	if b.Flush() != nil {
		return
	}
	columns := &pgproto3.RowDescription{Fields: []pgproto3.FieldDescription{
		{Name: []byte("value"), DataTypeOID: 25, DataTypeSize: -1, TypeModifier: -1},
	}}
	row := &pgproto3.DataRow{Values: [][]byte{[]byte(s.cfg.value)}}
	skipToSync := false // after an ERROR in the extended protocol
	for {
		msg, err := b.Receive()
		if err != nil {
			return
		}
		if _, sync := msg.(*pgproto3.Sync); skipToSync && !sync {
			continue
		}
		_, simple := msg.(*pgproto3.Query)
		switch msg := msg.(type) {
		case *pgproto3.Query, *pgproto3.Parse:
			s.statements.Add(1)
			switch {
			case s.cfg.answer != answerRow:
				if !s.fail(c, b, simple) {
					return
				}
				skipToSync = !simple
			case simple:
				b.Send(columns)
				b.Send(row)
				b.Send(&pgproto3.CommandComplete{CommandTag: []byte("SELECT 1")})
				b.Send(&pgproto3.ReadyForQuery{TxStatus: 'I'})
			default:
				b.Send(&pgproto3.ParseComplete{})
			}
		case *pgproto3.Describe:
			if msg.ObjectType == 'S' {
				b.Send(&pgproto3.ParameterDescription{})
			}
			b.Send(columns)
		case *pgproto3.Bind:
			b.Send(&pgproto3.BindComplete{})
		case *pgproto3.Execute:
			b.Send(row)
			b.Send(&pgproto3.CommandComplete{CommandTag: []byte("SELECT 1")})
		case *pgproto3.Close:
			b.Send(&pgproto3.CloseComplete{})
		case *pgproto3.Sync:
			skipToSync = false
			b.Send(&pgproto3.ReadyForQuery{TxStatus: 'I'})
		case *pgproto3.Terminate:
			return
		}
		if b.Flush() != nil {
			return
		}
	}
}

// fail answers a statement as the server is told to fail, and reports
// whether the connection lives on.
func (s *fakePGServer) fail(c net.Conn, b *pgproto3.Backend, simple bool) bool {
	switch s.cfg.answer {
	case answerError:
		b.Send(&pgproto3.ErrorResponse{Severity: "ERROR", Code: s.cfg.code, Message: "failed by the fake server"})
		if simple {
			b.Send(&pgproto3.ReadyForQuery{TxStatus: 'I'})
		}
		return true
	case answerFatal:
		b.Send(&pgproto3.ErrorResponse{Severity: "FATAL", Code: s.cfg.code, Message: "ended by the fake server"})
		_ = b.Flush()
	case answerReset:
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetLinger(0)
		}
	case answerNothing:
		_, _ = io.Copy(io.Discard, c)
	}
	return false
}

// closedPort returns the address of a loopback port nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	return addr
}

// silentPort returns the address of a loopback port that accepts
// connections and never says a word on them, until t ends.
func silentPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		conns []net.Conn
	)
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	})
	t.Cleanup(func() {
		_ = ln.Close()
		wg.Wait()
		mu.Lock()
		for _, c := range conns {
			_ = c.Close()
		}
		mu.Unlock()
	})
	return ln.Addr().String()
}

// pgConnect connects to dsn with pgconn, waiting at most wait, and returns
// the connection, closed when t ends, or the error.
func pgConnect(t *testing.T, dsn string, wait time.Duration) (*pgconn.PgConn, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	conn, err := pgconn.Connect(ctx, dsn)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn, nil
}

// pgExec runs one statement on a new connection to s under ctx and
// returns its error, which must not be nil.
func pgExec(ctx context.Context, t *testing.T, s *fakePGServer) error {
	t.Helper()
	conn, err := pgConnect(t, s.dsn, 5*time.Second)
	if err != nil {
		t.Fatalf("connect to the fake server: %v", err)
	}
	_, err = conn.Exec(ctx, "SELECT 1").ReadAll()
	if err == nil {
		t.Fatal("the fake server answered the statement")
	}
	return err
}
