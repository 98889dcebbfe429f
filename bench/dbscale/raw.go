package dbscale

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/paging"
)

// user is a row as raw SQL scans it, and as the peers read it: sqlx by
// its db tags, Bun by its bun tags.
type user struct {
	bun.BaseModel `bun:"table:users"`
	ID            int64     `json:"id" db:"id" bun:"id,pk"`
	Email         string    `json:"email" db:"email" bun:"email"`
	Name          string    `json:"name" db:"name" bun:"name"`
	Role          string    `json:"role" db:"role" bun:"role"`
	Active        bool      `json:"active" db:"active" bun:"active"`
	CreatedAt     time.Time `json:"created_at" db:"created_at" bun:"created_at"`
}

// rawList is the list on raw pgx: the SQL of one strategy, the rows
// scanned and the envelope encoded, with no router, no Bun and no HTTP.
type rawList struct {
	pool    *pgxpool.Pool
	cursors *paging.Cursors
	// today is the strategy of the first version: count(*) and the page
	// with OFFSET, concurrently as Bun's ScanAndCount runs them, on the
	// table with the indexes of then. Otherwise the service's strategy:
	// limit+1 and the count beside it, within the budget (a context
	// deadline the driver cancels on the server), else the estimate kept
	// for ten seconds; a page by cursor verifies it and reuses the count
	// it carries.
	today bool
	// overBudget and estimates remember what CountAuto's memo does.
	mu         sync.Mutex
	overBudget map[string]time.Time
	estimates  map[string]estimate
}

// newRawList is the raw list on pool, remembering its own overruns and
// estimates as the service does.
func newRawList(pool *pgxpool.Pool, cursors *paging.Cursors) *rawList {
	return &rawList{pool: pool, cursors: cursors, overBudget: map[string]time.Time{}, estimates: map[string]estimate{}}
}

// estimate is a kept planner estimate.
type estimate struct {
	rows  int
	until time.Time
}

// openRaw opens raw pgx's pool on dsn, with at most conns connections,
// and the platform's cursors.
func openRaw(ctx context.Context, dsn string, conns int) (*pgxpool.Pool, *paging.Cursors, error) {
	pool, err := newPool(ctx, dsn+"&pool_max_conns="+strconv.Itoa(conns))
	if err != nil {
		return nil, nil, err
	}
	cursors, err := paging.NewCursors(secret)
	if err != nil {
		pool.Close()
		return nil, nil, err
	}
	return pool, cursors, nil
}

// newPool opens the raw pool with the driver settings of the service's
// database package: a cancelled query is cancelled on the server.
func newPool(ctx context.Context, dsn string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	cfg.ConnConfig.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: 250 * time.Millisecond}
	}
	return pgxpool.NewWithConfig(ctx, cfg)
}

const (
	columns = "id, email, name, role, active, created_at"
	budget  = 25 * time.Millisecond
	// countMaxAge is how long a cursor's count is reused, by both: the
	// scenarios replay one cursor made at set-up for the whole run, where
	// a client walking a list gets a fresh one with every page.
	countMaxAge = 24 * time.Hour
)

// where is the filter of s, with its arguments from $1.
func where(s scenario) (string, []any) {
	var conds []string
	var args []any
	if s.role != "" {
		args = append(args, s.role)
		conds = append(conds, "role = $"+strconv.Itoa(len(args)))
	}
	if s.q != "" {
		args = append(args, "%"+strings.ToLower(s.q)+"%")
		n := strconv.Itoa(len(args))
		conds = append(conds, "(lower(name) LIKE $"+n+" ESCAPE '!' OR lower(email) LIKE $"+n+" ESCAPE '!')")
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// orderBy is the ORDER BY of s's sort: id, or -created_at and id.
func orderBy(s scenario) string {
	if s.sort == "-created_at" {
		return " ORDER BY created_at DESC, id DESC"
	}
	return " ORDER BY id ASC"
}

// tally is a count found beside the page.
type tally struct {
	n     int
	exact bool
	err   error
}

func (r *rawList) list(ctx context.Context, s scenario) ([]byte, error) {
	if r.today {
		return r.listToday(ctx, s)
	}
	cond, filterArgs := where(s)
	args := filterArgs
	base := "SELECT " + columns + " FROM users" + cond
	page := base
	order := orderBy(s)
	offset := s.page * limit
	var carried *paging.Count
	if s.byCursor {
		layout := paging.Layout{Keys: []paging.Kind{paging.KindInt}}
		if s.sort == "-created_at" {
			layout.Keys = []paging.Kind{paging.KindTime, paging.KindInt}
		}
		pos, err := r.cursors.Decode(s.cursor, layout)
		if err != nil {
			return nil, err
		}
		if pos.Count != nil && time.Since(pos.Count.At) < countMaxAge {
			carried = pos.Count
		}
		s.page = pos.Page + 1
		offset = s.page * limit
		and := " WHERE "
		if cond != "" {
			and = " AND "
		}
		n := strconv.Itoa(len(args) + 1)
		if s.sort == "-created_at" && len(pos.After) == 2 {
			page += and + "(created_at, id) < ($" + n + ", $" + strconv.Itoa(len(args)+2) + ")"
		} else if len(pos.After) == 1 {
			page += and + "id > $" + n
		} else {
			return nil, fmt.Errorf("a cursor of %d keys for sort %q", len(pos.After), s.sort)
		}
		args = append(slices.Clip(args), pos.After...)
		page += order + " LIMIT " + strconv.Itoa(limit+1)
	} else {
		page += order + " LIMIT " + strconv.Itoa(limit+1) + " OFFSET " + strconv.Itoa(offset)
	}
	var pending chan tally
	if carried == nil {
		pending = make(chan tally, 1)
		go func() {
			n, exact, err := r.auto(ctx, base, filterArgs)
			pending <- tally{n, exact, err}
		}()
	}
	items, err := r.scan(ctx, page, args...)
	var t tally
	if pending != nil {
		t = <-pending
	} else {
		t = tally{n: carried.Total, exact: carried.Exact}
	}
	if err = errors.Join(err, t.err); err != nil {
		return nil, err
	}
	hasNext := len(items) > limit
	if hasNext {
		items = items[:limit]
	}
	res := paging.Result{HasNext: hasNext, Total: t.n, TotalExact: t.exact}
	if !s.byCursor && !hasNext && (len(items) > 0 || offset == 0) {
		res.Total, res.TotalExact = offset+len(items), true
	} else if !res.TotalExact {
		res.Total = max(res.Total, offset+len(items)+1)
	}
	if hasNext {
		last := items[len(items)-1]
		after := []any{last.ID}
		if s.sort == "-created_at" {
			after = []any{last.CreatedAt, last.ID}
		}
		count := carried
		if count == nil {
			count = &paging.Count{Total: res.Total, Exact: res.TotalExact, At: time.Now()}
		}
		res.NextCursor, err = r.cursors.Encode(paging.Position{Page: s.page, Limit: limit, Filter: "raw", After: after, Count: count})
		if err != nil {
			return nil, err
		}
	}
	return json.Marshal(paging.Of(items, paging.Paging{Page: s.page, Limit: limit}, res))
}

// auto counts base within the budget, or estimates it.
func (r *rawList) auto(ctx context.Context, base string, args []any) (int, bool, error) {
	key := fmt.Sprint(base, args)
	now := time.Now()
	r.mu.Lock()
	until, over := r.overBudget[key]
	e, kept := r.estimates[key]
	r.mu.Unlock()
	if !over || now.After(until) {
		conn, err := r.pool.Acquire(ctx)
		if err != nil {
			return 0, false, err
		}
		cctx, cancel := context.WithTimeout(ctx, budget)
		var n int
		err = conn.QueryRow(cctx, "SELECT count(*) FROM ("+base+") AS counted", args...).Scan(&n)
		over := errors.Is(cctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
		cancel()
		if over {
			// As the service does: a late cancel request must not reach
			// the next statement of a pooled connection. (Only over the
			// budget: once cancel has run, cctx.Err is never nil.)
			_ = conn.Conn().Close(context.Background())
		}
		conn.Release()
		switch {
		case err == nil && !over:
			return n, true, nil
		case !over:
			return 0, false, err
		}
		r.mu.Lock()
		r.overBudget[key] = time.Now().Add(time.Minute)
		r.mu.Unlock()
	}
	if kept && now.Before(e.until) {
		return e.rows, false, nil
	}
	var plan []byte
	if err := r.pool.QueryRow(ctx, "EXPLAIN (FORMAT JSON) "+base, args...).Scan(&plan); err != nil {
		return 0, false, fmt.Errorf("estimate: %w", err)
	}
	var out []struct {
		Plan struct {
			Rows float64 `json:"Plan Rows"`
		} `json:"Plan"`
	}
	if err := json.Unmarshal(plan, &out); err != nil || len(out) == 0 {
		return 0, false, fmt.Errorf("read the plan %s: %w", plan, err)
	}
	rows := int(out[0].Plan.Rows)
	r.mu.Lock()
	r.estimates[key] = estimate{rows: rows, until: now.Add(10 * time.Second)}
	r.mu.Unlock()
	return rows, false, nil
}

// listToday is the first version's strategy on the table of then.
func (r *rawList) listToday(ctx context.Context, s scenario) ([]byte, error) {
	cond, args := where(s)
	var (
		wg    sync.WaitGroup
		total int
		cerr  error
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		cerr = r.pool.QueryRow(ctx, "SELECT count(*) FROM users_today"+cond, args...).Scan(&total)
	}()
	items, err := r.scan(ctx, "SELECT "+columns+" FROM users_today"+cond+" ORDER BY id ASC LIMIT "+
		strconv.Itoa(limit)+" OFFSET "+strconv.Itoa(s.page*limit), args...)
	wg.Wait()
	if err = errors.Join(err, cerr); err != nil {
		return nil, err
	}
	return json.Marshal(paging.New(items, total, paging.Paging{Page: s.page, Limit: limit}))
}

// row is the user with the id as JSON, the answer of a row by id.
func (r *rawList) row(ctx context.Context, id int64) ([]byte, error) {
	items, err := r.scan(ctx, "SELECT "+columns+" FROM users WHERE id = $1", id)
	if err != nil {
		return nil, err
	}
	if len(items) != 1 {
		return nil, fmt.Errorf("user %d: %d rows", id, len(items))
	}
	return json.Marshal(items[0])
}

func (r *rawList) scan(ctx context.Context, sql string, args ...any) ([]user, error) {
	rows, err := r.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	items := make([]user, 0, limit+1)
	for rows.Next() {
		var u user
		if err := rows.Scan(&u.ID, &u.Email, &u.Name, &u.Role, &u.Active, &u.CreatedAt); err != nil {
			rows.Close()
			return nil, err
		}
		items = append(items, u)
	}
	return items, rows.Err()
}
