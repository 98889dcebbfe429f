package trust

import (
	"context"
	"crypto/sha256"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/hashicorp/golang-lru/v2/expirable"
)

// introspectionCacheSize bounds the answers kept.
const introspectionCacheSize = 10000

// introspector asks the issuer whether tokens are active (RFC 7662),
// keeping each answer for Introspection.Cache.
type introspector struct {
	cfg     Introspection
	client  *http.Client
	logger  *slog.Logger
	answers *expirable.LRU[[sha256.Size]byte, bool]
}

func newIntrospector(cfg Config) *introspector {
	return &introspector{
		cfg: cfg.Introspection, client: cfg.Client, logger: cfg.Logger,
		answers: expirable.NewLRU[[sha256.Size]byte, bool](introspectionCacheSize, nil, cfg.Introspection.Cache),
	}
}

// active reports whether the issuer says raw is active, from the cache
// when it answered within Cache; when it cannot be asked, FailOpen
// decides, and that is not kept.
func (in *introspector) active(ctx context.Context, raw string) bool {
	id := sha256.Sum256([]byte(raw))
	if ok, found := in.answers.Get(id); found {
		return ok
	}
	ok, err := in.ask(ctx, raw)
	if err != nil {
		in.logger.Warn("the issuer could not be asked whether a token is active", slog.String("url", in.cfg.URL),
			slog.Bool("fail_open", in.cfg.FailOpen), slog.Any("error", err))
		return in.cfg.FailOpen
	}
	in.answers.Add(id, ok)
	return ok
}

// ask posts the token to the introspection endpoint.
func (in *introspector) ask(ctx context.Context, raw string) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	form := url.Values{"token": {raw}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, in.cfg.URL, strings.NewReader(form.Encode()))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.SetBasicAuth(url.QueryEscape(in.cfg.ClientID), url.QueryEscape(in.cfg.ClientSecret))
	var answer struct {
		Active *bool `json:"active"`
	}
	if _, err := doJSON(in.client, req, &answer); err != nil {
		return false, err
	}
	if answer.Active == nil {
		return false, errNoActive
	}
	return *answer.Active, nil
}

var errNoActive = errors.New("trust: the introspection answer has no active member")
