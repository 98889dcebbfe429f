package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/router"
)

func newLogger(cfg config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.Env == "production" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// routerConfig maps the service configuration onto the router plugin.
func routerConfig(cfg config, logger *slog.Logger) router.Config {
	return router.Config{
		Name:      "api",
		BasePath:  cfg.BasePath,
		JWTSecret: cfg.JWTSecret,
		TokenKeys: cfg.TokenKeys,
		Logger:    logger,
		APIDocs: router.APIDocs{
			Name:        "Fiber template API",
			Version:     "1.0.0",
			Description: "Example service of the Fiber template: users with login, CRUD and paging.",
			UseAuth:     cfg.DocsAuth,
			Users:       cfg.DocsUsers,
		},
		RequestTimeout: cfg.RequestTimeout,
		IdempotencyTTL: cfg.IdempotencyTTL,
		TrustedProxies: cfg.TrustedProxies,
		Production:     cfg.Env == "production",
		LogRequests:    cfg.LogRequests,
		Middleware:     []fiber.Handler{databaseSession},

		// The fingerprints' key outlives a rotation of the signing keys.
		IdempotencySecret: cfg.IdempotencySecret,
	}
}

// serve opens the database, builds the router and listens until ctx is
// cancelled, then lets in-flight requests finish and closes the database.
func serve(ctx context.Context, cfg config, logger *slog.Logger) error {
	if cfg.generatedSecret {
		secret, err := loadDevSecret(devSecretFile)
		if err != nil {
			logger.Warn("JWT_SECRET is not set and the development secret file is unusable: using a random secret for this run; tokens will not survive a restart", slog.Any("error", err))
		} else {
			cfg.JWTSecret = secret
		}
	}
	if cfg.devKeys {
		keys, err := loadDevKeys(devKeysFile)
		if err != nil {
			logger.Warn("neither JWT_SIGNING_KEYS nor JWT_SECRET is set and the development keys are unusable: signing with the development secret (HS256)", slog.Any("error", err))
		} else {
			cfg.TokenKeys = keys
			logger.Info("neither JWT_SIGNING_KEYS nor JWT_SECRET is set: signing with the development key in " + devKeysFile + " (never in production); its public key is at /.well-known/jwks.json")
		}
	}
	devStableSecrets(&cfg, devSecretFile, logger)
	db, replicas, err := database.OpenWithReplicas(ctx, cfg.DatabaseURL, cfg.DatabaseReplicaURLs, database.ReplicaConfig{Logger: logger, Pool: cfg.Pool})
	if err != nil {
		return err
	}
	defer func() {
		logReplicaStats(logger, replicas)
		if err := db.Close(); err != nil {
			logger.Error("close database", slog.Any("error", err))
		}
	}()
	tp, shutdownTraces, err := tracerProvider(ctx, logger)
	if err != nil {
		return err
	}
	if tp != nil {
		defer flushTraces(shutdownTraces, logger)
		db = database.Trace(db, tp)
	}
	if cfg.MigrateOnStart {
		if err := migrateOnStart(ctx, db, cfg, logger); err != nil {
			return err
		}
	}
	opts := accountOptions(ctx, cfg)
	opts.CursorSecret, opts.Count = cfg.PagingCursorSecret, database.CountAuto(cfg.PagingCountBudget)
	opts.CountMaxAge = cfg.PagingCountMaxAge
	if opts.CountMaxAge == 0 {
		opts.CountMaxAge = -1
	}
	if replicas != nil {
		// A list's count and estimate go where its page goes.
		opts.Reads = replicas
	}
	if cfg.Fleet.Trust.Issuer != "" {
		if opts.Trust, err = trustedIssuer(ctx, cfg, logger); err != nil {
			return err
		}
		opts.KeepAccounts = cfg.Fleet.KeepAccounts
	}
	rcfg := routerConfig(cfg, logger)
	rcfg.Extensions = append(rcfg.Extensions, migrationsReady{db: db})
	if cfg.Metrics {
		rcfg.Metrics = metricsRegistry(db)
		rcfg.MetricsElsewhere = cfg.MetricsAddr != ""
	}
	rcfg.TracerProvider = tp
	rcfg.ReadHeaderTimeout = cfg.Conns.ReadHeaderTimeout
	r, err := app.NewWithOptions(db, rcfg, opts)
	if err != nil {
		return err
	}
	tcp, err := net.Listen("tcp", net.JoinHostPort(cfg.Host, strconv.Itoa(cfg.Port)))
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	ln, err := limitConns(tcp, cfg, logger)
	if err != nil {
		_ = tcp.Close()
		return err
	}
	served := make(chan error, 2)
	base := "http://" + displayHost(ln.Addr())
	maxConns, perAddress := ln.Limits()
	attrs := []any{
		slog.String("url", base+r.RootURL()),
		slog.String("docs", base+r.DocsURL()),
		slog.String("database", string(database.DialectOfDB(db))),
		slog.String("env", cfg.Env),
		slog.Int("max_conns", maxConns),
		slog.Int("max_conns_per_address", perAddress),
	}
	if rcfg.MetricsElsewhere {
		metrics, err := listenMetrics(cfg.MetricsAddr, rcfg.Metrics)
		if err != nil {
			_ = tcp.Close()
			return err
		}
		// Closed after the service's own shutdown, so a scrape sees the drain.
		defer metrics.close(logger)
		go metrics.serve(served)
		attrs = append(attrs, slog.String("metrics", "http://"+displayHost(metrics.ln.Addr())+"/metrics"))
	}
	logger.Info("listening", attrs...)

	go func() { served <- r.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	return drain(cfg, logger, r, ln)
}

// displayHost turns a wildcard listen address into one a browser can open.
func displayHost(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return addr.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}
