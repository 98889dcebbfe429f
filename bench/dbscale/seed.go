package dbscale

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/migrations"
)

// seedUsers inserts n users with realistic distributions into the migrated
// users table: 5% admins, 15% guests, 80% members; 90% active; names from
// 40 first and 40 last names (Smith is one last name in 40), emails made
// unique by the row number. The secondary indexes are dropped for the
// insert and made again from their own definitions, which is much faster
// than maintaining them row by row.
func seedUsers(ctx context.Context, db *bun.DB, n int) error {
	if err := migrations.Up(ctx, db); err != nil {
		return err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SET maintenance_work_mem = '256MB'"); err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	rows, err := conn.QueryContext(ctx, `SELECT indexname, indexdef FROM pg_indexes
		WHERE tablename = 'users' AND indexname NOT IN ('users_pkey', 'users_email_key')`)
	if err != nil {
		return fmt.Errorf("seed: list indexes: %w", err)
	}
	var names, defs []string
	for rows.Next() {
		var name, def string
		if err := rows.Scan(&name, &def); err != nil {
			return fmt.Errorf("seed: list indexes: %w", err)
		}
		names, defs = append(names, name), append(defs, def)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("seed: list indexes: %w", err)
	}
	for _, name := range names {
		if _, err := conn.ExecContext(ctx, "DROP INDEX "+name); err != nil {
			return fmt.Errorf("seed: drop %s: %w", name, err)
		}
	}
	insert := fmt.Sprintf(`INSERT INTO users (email, name, password_hash, role, active, created_at)
		SELECT lower(f) || '.' || lower(l) || g || '@example.com', f || ' ' || l,
			'$2a$10$abcdefghijklmnopqrstuuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0',
			CASE WHEN g %% 20 = 0 THEN 'admin' WHEN g %% 20 < 4 THEN 'guest' ELSE 'member' END,
			g %% 10 <> 0, now() - g * interval '1 second'
		FROM generate_series(1::bigint, %d) AS g,
		LATERAL (SELECT (ARRAY['Ada','Alan','Barbara','Brian','Carol','Dennis','Donald','Edsger','Frances','Grace',
			'Guido','Hedy','Ivan','James','Jean','John','Ken','Leslie','Linus','Margaret','Mary','Niklaus','Radia',
			'Rob','Robin','Shafi','Sophie','Tim','Tony','Vint','Whitfield','Yukihiro','Anita','Bjarne','Cynthia',
			'Dorothy','Evelyn','Fran','Gerald','Hal'])[1 + (g * 7919) %% 40] AS f,
			(ARRAY['Lovelace','Turing','Liskov','Kernighan','Allen','Ritchie','Knuth','Dijkstra','Hopper','Smith',
			'Rossum','Lamarr','Sutherland','Gosling','Sammet','McCarthy','Thompson','Lamport','Torvalds','Hamilton',
			'Keller','Wirth','Perlman','Pike','Milner','Goldwasser','Wilson','Berners','Hoare','Cerf','Diffie',
			'Matsumoto','Borg','Stroustrup','Dwork','Vaughan','Johnson','Bilas','Sussman','Abelson'])[1 + ((g / 40) * 104729) %% 40] AS l) AS names`, n)
	if _, err := conn.ExecContext(ctx, insert); err != nil {
		return fmt.Errorf("seed: insert %d users: %w", n, err)
	}
	for i, def := range defs {
		if _, err := conn.ExecContext(ctx, def); err != nil {
			return fmt.Errorf("seed: create %s: %w", names[i], err)
		}
	}
	return seedToday(ctx, conn)
}

// seedToday copies users into users_today with the indexes the schema had
// before the search indexes (id, email, role, active): the baseline's table.
func seedToday(ctx context.Context, conn bun.Conn) error {
	for _, stmt := range []string{
		"CREATE TABLE users_today (LIKE users INCLUDING DEFAULTS)",
		"INSERT INTO users_today SELECT * FROM users",
		"ALTER TABLE users_today ADD PRIMARY KEY (id)",
		"CREATE UNIQUE INDEX users_today_email_key ON users_today (email)",
		"CREATE INDEX users_today_role_idx ON users_today (role)",
		"CREATE INDEX users_today_active_idx ON users_today (active)",
		"VACUUM ANALYZE users",
		"VACUUM ANALYZE users_today",
	} {
		if _, err := conn.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("seed: %s: %w", stmt, err)
		}
	}
	return nil
}
