package main

import (
	"testing"
	"time"
)

func TestLoadConfigPaging(t *testing.T) {
	t.Parallel()
	env := func(vars map[string]string) func(string) (string, bool) {
		return func(key string) (string, bool) { v, ok := vars[key]; return v, ok }
	}
	ok := []struct {
		name   string
		vars   map[string]string
		budget time.Duration
		secret string
	}{
		{"unset variables give a 25ms budget and a cursor key from JWT_SECRET", map[string]string{}, 25 * time.Millisecond, ""},
		{"a budget is a Go duration", map[string]string{"PAGING_COUNT_BUDGET": "150ms"}, 150 * time.Millisecond, ""},
		{"a zero budget is kept: never count exactly", map[string]string{"PAGING_COUNT_BUDGET": "0"}, 0, ""},
		{"a cursor secret is kept", map[string]string{"PAGING_CURSOR_SECRET": "cursor-secret"}, 25 * time.Millisecond, "cursor-secret"},
	}
	for _, tt := range ok {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := loadConfig(env(tt.vars))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.PagingCountBudget != tt.budget || string(cfg.PagingCursorSecret) != tt.secret {
				t.Errorf("budget %s secret %q, want %s %q", cfg.PagingCountBudget, cfg.PagingCursorSecret, tt.budget, tt.secret)
			}
		})
	}
	for _, bad := range []string{"25", "-1ms", "soon"} {
		t.Run("the budget "+bad+" is refused", func(t *testing.T) {
			if _, err := loadConfig(env(map[string]string{"PAGING_COUNT_BUDGET": bad})); err == nil {
				t.Errorf("PAGING_COUNT_BUDGET=%s was accepted", bad)
			}
		})
	}
}
