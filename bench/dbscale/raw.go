package dbscale

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/asapjs/fiber-template/platform/paging"
)

// user is a row as raw SQL scans it.
type user struct {
	ID        int64     `json:"id"`
	Email     string    `json:"email"`
	Name      string    `json:"name"`
	Role      string    `json:"role"`
	Active    bool      `json:"active"`
	CreatedAt time.Time `json:"created_at"`
}

// rawList is the list on raw pgx: the SQL of one strategy, the rows
// scanned and the envelope encoded, with no router, no Bun and no HTTP.
type rawList struct {
	pool    *pgxpool.Pool
	cursors *paging.Cursors
	// today is the strategy of the first version: count(*) and the page
	// with OFFSET, concurrently as Bun's ScanAndCount runs them, on the
	// table with the indexes of then. Otherwise the new strategy: limit+1,
	// a count only when needed, within the budget, else the estimate.
	today bool
	// overBudget remembers the queries whose count ran out of budget, as
	// CountAuto does.
	mu         sync.Mutex
	overBudget map[string]time.Time
}

const (
	columns = "id, email, name, role, active, created_at"
	budget  = 25 * time.Millisecond
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

func (r *rawList) list(ctx context.Context, s scenario) ([]byte, error) {
	if r.today {
		return r.listToday(ctx, s)
	}
	table := "users"
	cond, args := where(s)
	page := "SELECT " + columns + " FROM " + table + cond
	offset := s.page * limit
	if s.byCursor {
		args = append(args, s.afterID)
		if cond == "" {
			page += " WHERE id > $" + strconv.Itoa(len(args))
		} else {
			page += " AND id > $" + strconv.Itoa(len(args))
		}
		page += " ORDER BY id ASC LIMIT " + strconv.Itoa(limit+1)
	} else {
		page += " ORDER BY id ASC LIMIT " + strconv.Itoa(limit+1) + " OFFSET " + strconv.Itoa(offset)
	}
	items, err := r.scan(ctx, page, args...)
	if err != nil {
		return nil, err
	}
	hasNext := len(items) > limit
	if hasNext {
		items = items[:limit]
	}
	res := paging.Result{HasNext: hasNext}
	countArgs := args
	if s.byCursor {
		countArgs = args[:len(args)-1]
	}
	switch {
	case !s.byCursor && !hasNext && (len(items) > 0 || offset == 0):
		res.Total, res.TotalExact = offset+len(items), true
	default:
		res.Total, res.TotalExact, err = r.auto(ctx, "SELECT "+columns+" FROM "+table+cond, countArgs)
		if err != nil {
			return nil, err
		}
		if !res.TotalExact {
			res.Total = max(res.Total, offset+len(items)+1)
		}
	}
	if hasNext {
		last := items[len(items)-1]
		res.NextCursor, err = r.cursors.Encode(paging.Position{Page: s.page, Limit: limit, Filter: "raw", After: []any{last.ID}})
		if err != nil {
			return nil, err
		}
	}
	return json.Marshal(paging.Of(items, paging.Paging{Page: s.page, Limit: limit}, res))
}

// auto counts base within the budget in a transaction, or estimates it.
func (r *rawList) auto(ctx context.Context, base string, args []any) (int, bool, error) {
	key := fmt.Sprint(base, args)
	r.mu.Lock()
	until, over := r.overBudget[key]
	r.mu.Unlock()
	if !over || time.Now().After(until) {
		n, err := r.countWithin(ctx, base, args)
		var pgErr *pgconn.PgError
		switch {
		case err == nil:
			return n, true, nil
		case !errors.As(err, &pgErr) || pgErr.Code != "57014":
			return 0, false, err
		}
		r.mu.Lock()
		r.overBudget[key] = time.Now().Add(time.Minute)
		r.mu.Unlock()
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
	return int(out[0].Plan.Rows), false, nil
}

func (r *rawList) countWithin(ctx context.Context, base string, args []any) (int, error) {
	var n int
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SET LOCAL statement_timeout = "+strconv.FormatInt(budget.Milliseconds(), 10)); err != nil {
			return err
		}
		return tx.QueryRow(ctx, "SELECT count(*) FROM ("+base+") AS counted", args...).Scan(&n)
	})
	return n, err
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
