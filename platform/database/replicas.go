package database

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// ReplicaConfig tunes the read replicas of OpenWithReplicas.
type ReplicaConfig struct {
	// Logger receives a line when a replica goes down or comes back.
	//
	// Optional. Default: slog.Default()
	Logger *slog.Logger
	// CheckInterval is how often every replica is pinged, to take a
	// failed one back once it answers again.
	//
	// Optional. Default: 5s
	CheckInterval time.Duration
	// Pool bounds the pools of the primary and of every replica.
	//
	// Optional. Default: see Pool
	Pool Pool
}

// DefaultReplicaCheckInterval is the default ReplicaConfig.CheckInterval.
const DefaultReplicaCheckInterval = 5 * time.Second

// replicaPingTimeout bounds one health ping of a replica.
const replicaPingTimeout = 2 * time.Second

func replicaConfigDefault(cfg ReplicaConfig) ReplicaConfig {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.CheckInterval <= 0 {
		cfg.CheckInterval = DefaultReplicaCheckInterval
	}
	return cfg
}

// ReplicaStats counts what one read replica served.
type ReplicaStats struct {
	// Name is the replica's host and port.
	Name string
	// Healthy is false while the replica is skipped.
	Healthy bool
	// Reads is how many queries the replica was asked.
	Reads int64
	// Failovers is how many of them failed for want of the replica and
	// ran again on the primary.
	Failovers int64
}

// Replicas routes the reads of a primary's bun.DB to its read replicas,
// round robin, as Bun's connection resolver: plain SELECTs outside a
// transaction go to a healthy replica; writes, transactions, raw queries
// and the reads of a session that has written (see WithSession) or of
// OnPrimary go to the primary. A replica that fails a query for want of
// a connection is marked down, the query runs again on the primary, and
// the replica is pinged every CheckInterval until it answers again; with
// every replica down the primary serves all reads.
type Replicas struct {
	primary      *sql.DB
	nodes        []*replica
	next         atomic.Uint64
	primaryReads atomic.Int64 // reads meant for a replica, none being up
	logger       *slog.Logger

	stop      chan struct{}
	stopped   sync.WaitGroup
	closeOnce sync.Once
}

var _ bun.ConnResolver = (*Replicas)(nil)

// replica is one read replica with its pool and counters.
type replica struct {
	name      string
	db        *sql.DB
	state     atomic.Int32 // unknown (never checked), up or down
	reads     atomic.Int64
	failovers atomic.Int64
}

// States of a replica. It is unknown until first checked, at start.
const (
	unknown int32 = iota
	up
	down
)

// healthy reports whether n serves reads.
func (n *replica) healthy() bool { return n.state.Load() == up }

// set records n's state and reports whether it changed.
func (n *replica) set(state int32) bool { return n.state.Swap(state) != state }

// OpenWithReplicas opens the PostgreSQL primary at dsn, as Open does, with
// the read replicas at replicaDSNs behind it (see Replicas). A replica that
// does not answer at start is marked down, not an error: the primary
// serves until it comes back. With no replica DSNs it is Open.
func OpenWithReplicas(ctx context.Context, dsn string, replicaDSNs []string, cfg ReplicaConfig) (*bun.DB, *Replicas, error) {
	if len(replicaDSNs) == 0 {
		db, err := OpenPool(ctx, dsn, cfg.Pool)
		return db, nil, err
	}
	cfg = replicaConfigDefault(cfg)
	for _, d := range append([]string{dsn}, replicaDSNs...) {
		if dialect, err := DialectOf(d); err != nil || dialect != Postgres {
			return nil, nil, fmt.Errorf("database: read replicas need PostgreSQL, and %q is not a postgres:// DSN", redact(d))
		}
	}
	primary, err := openPostgres(dsn, cfg.Pool)
	if err != nil {
		return nil, nil, err
	}
	r := &Replicas{primary: primary, logger: cfg.Logger, stop: make(chan struct{})}
	for _, d := range replicaDSNs {
		sqldb, err := openPostgres(d, cfg.Pool)
		if err != nil {
			_ = r.Close()
			_ = primary.Close()
			return nil, nil, err
		}
		r.nodes = append(r.nodes, &replica{name: hostOf(d), db: sqldb})
	}
	db := bun.NewDB(primary, pgdialect.New(), bun.WithConnResolver(r)).WithQueryHook(sessionHook{})
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		return nil, nil, fmt.Errorf("ping %s database: %w", Postgres, err)
	}
	r.checkAll(ctx)
	r.stopped.Add(1)
	go r.monitor(cfg.CheckInterval)
	return db, r, nil
}

// hostOf names a replica by the host and port of its DSN, which never
// carry a password.
func hostOf(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && u.Host != "" {
		return u.Host
	}
	return redact(dsn)
}

// ResolveConn implements bun.ConnResolver: nil sends the query to the
// primary.
func (r *Replicas) ResolveConn(ctx context.Context, q bun.Query) bun.IConn {
	if !bun.IsReadOnlyQuery(q) || readsFromPrimary(ctx) {
		return nil
	}
	start := r.next.Add(1)
	for i := range uint64(len(r.nodes)) {
		if n := r.nodes[(start+i)%uint64(len(r.nodes))]; n.healthy() {
			n.reads.Add(1)
			return &replicaConn{r: r, n: n}
		}
	}
	r.primaryReads.Add(1)
	return nil
}

// Stats returns the counters of every replica, in the order of the DSNs.
func (r *Replicas) Stats() []ReplicaStats {
	out := make([]ReplicaStats, len(r.nodes))
	for i, n := range r.nodes {
		out[i] = ReplicaStats{Name: n.name, Healthy: n.healthy(), Reads: n.reads.Load(), Failovers: n.failovers.Load()}
	}
	return out
}

// PrimaryReads is how many reads the primary served because no replica
// was up.
func (r *Replicas) PrimaryReads() int64 { return r.primaryReads.Load() }

// Close stops the health checks and closes the replicas' pools; the
// primary's pool is the bun.DB's, which closes the Replicas too.
func (r *Replicas) Close() error {
	var err error
	r.closeOnce.Do(func() {
		close(r.stop)
		r.stopped.Wait()
		for _, n := range r.nodes {
			if cerr := n.db.Close(); cerr != nil {
				err = errors.Join(err, fmt.Errorf("close replica %s: %w", n.name, cerr))
			}
		}
	})
	return err
}

// monitor pings every replica each interval until Close.
func (r *Replicas) monitor(interval time.Duration) {
	defer r.stopped.Done()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { <-r.stop; cancel() }()
	for {
		select {
		case <-r.stop:
			return
		case <-tick.C:
			r.checkAll(ctx)
		}
	}
}

// checkAll pings every replica and records which answer.
func (r *Replicas) checkAll(ctx context.Context) {
	for _, n := range r.nodes {
		pctx, cancel := context.WithTimeout(ctx, replicaPingTimeout)
		err := n.db.PingContext(pctx)
		cancel()
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			r.markDown(n, err)
		} else if n.set(up) {
			r.logger.Info("read replica is up: it serves reads", slog.String("replica", n.name))
		}
	}
}

// markDown takes n out of the rotation, saying so once.
func (r *Replicas) markDown(n *replica, err error) {
	if n.set(down) {
		r.logger.Warn("read replica is down: the primary serves its reads until it answers again",
			slog.String("replica", n.name), slog.Any("error", err))
	}
}

// unavailable reports whether err says the replica could not serve, as
// opposed to the query being wrong or its context ending: no connection,
// a broken one, or a server shutting down or starting.
func unavailable(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil {
		return false
	}
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return true
	}
	switch pgErr.Code {
	case "57P01", "57P02", "57P03", "57P04": // admin or crash shutdown, starting, database dropped
		return true
	}
	return len(pgErr.Code) == 5 && pgErr.Code[:2] == "08" // connection exceptions
}

// replicaConn runs a query on a replica, and on the primary when the
// replica turns out to be unavailable.
type replicaConn struct {
	r *Replicas
	n *replica
}

var _ bun.IConn = (*replicaConn)(nil)

func (c *replicaConn) failover(ctx context.Context, err error) bool {
	if !unavailable(ctx, err) {
		return false
	}
	c.n.failovers.Add(1)
	c.r.markDown(c.n, err)
	return true
}

func (c *replicaConn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	rows, err := c.n.db.QueryContext(ctx, query, args...)
	if c.failover(ctx, err) {
		return c.r.primary.QueryContext(ctx, query, args...)
	}
	return rows, err
}

func (c *replicaConn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := c.n.db.ExecContext(ctx, query, args...)
	if c.failover(ctx, err) {
		return c.r.primary.ExecContext(ctx, query, args...)
	}
	return res, err
}

// hold takes a connection of the replica's pool for the caller's next
// statements, or of the primary's when the replica is unavailable, and
// returns it with the pool's connection under it. A statement the replica then fails for want
// of itself runs again on the primary, as on replicaConn. Closing the
// *sql.Conn it returns releases it.
func (c *replicaConn) hold(ctx context.Context) (bun.IConn, *sql.Conn, error) {
	conn, err := c.n.db.Conn(ctx)
	if c.failover(ctx, err) {
		conn, err = c.r.primary.Conn(ctx)
		if err != nil {
			return nil, nil, err
		}
		return conn, conn, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return &heldReplica{replicaConn: c, conn: conn}, conn, nil
}

// heldReplica is a held connection of a replica.
type heldReplica struct {
	*replicaConn
	conn *sql.Conn
}

func (h *heldReplica) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	rows, err := h.conn.QueryContext(ctx, query, args...)
	if h.failover(ctx, err) {
		return h.r.primary.QueryContext(ctx, query, args...)
	}
	return rows, err
}

func (h *heldReplica) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := h.conn.ExecContext(ctx, query, args...)
	if h.failover(ctx, err) {
		return h.r.primary.ExecContext(ctx, query, args...)
	}
	return res, err
}

func (h *heldReplica) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	row := h.conn.QueryRowContext(ctx, query, args...)
	if h.failover(ctx, row.Err()) {
		return h.r.primary.QueryRowContext(ctx, query, args...)
	}
	return row
}

func (c *replicaConn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	row := c.n.db.QueryRowContext(ctx, query, args...)
	if c.failover(ctx, row.Err()) {
		return c.r.primary.QueryRowContext(ctx, query, args...)
	}
	return row
}
