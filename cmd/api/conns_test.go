package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestLoadConfigConns(t *testing.T) {
	t.Parallel()
	ok := []struct {
		name string
		vars map[string]string
		want conns
	}{
		{"unset, the caps are left to the open-files limit", map[string]string{},
			conns{ReadHeaderTimeout: 10 * time.Second}},
		{"each is read", map[string]string{"MAX_CONNS": "500", "MAX_CONNS_PER_ADDRESS": "20", "READ_HEADER_TIMEOUT": "2s"},
			conns{Max: 500, PerAddress: 20, ReadHeaderTimeout: 2 * time.Second}},
		{"the cap per address alone", map[string]string{"MAX_CONNS_PER_ADDRESS": "20"},
			conns{PerAddress: 20, ReadHeaderTimeout: 10 * time.Second}},
	}
	for _, tt := range ok {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := loadConfig(env(tt.vars))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Conns != tt.want {
				t.Errorf("conns %+v, want %+v", cfg.Conns, tt.want)
			}
		})
	}
	bad := []struct {
		vars map[string]string
		name string // the variable the error names
	}{
		{map[string]string{"MAX_CONNS": "0"}, "MAX_CONNS"},
		{map[string]string{"MAX_CONNS": "-5"}, "MAX_CONNS"},
		{map[string]string{"MAX_CONNS_PER_ADDRESS": "many"}, "MAX_CONNS_PER_ADDRESS"},
		{map[string]string{"MAX_CONNS": "10", "MAX_CONNS_PER_ADDRESS": "11"}, "MAX_CONNS_PER_ADDRESS"},
		{map[string]string{"READ_HEADER_TIMEOUT": "0s"}, "READ_HEADER_TIMEOUT"},
		{map[string]string{"READ_HEADER_TIMEOUT": "10"}, "READ_HEADER_TIMEOUT"},
	}
	for _, b := range bad {
		t.Run(fmt.Sprint(b.vars)+" is refused, naming "+b.name, func(t *testing.T) {
			t.Parallel()
			_, err := loadConfig(env(b.vars))
			if err == nil || !strings.Contains(err.Error(), b.name) {
				t.Errorf("%v: error %v, want one naming %s", b.vars, err, b.name)
			}
		})
	}
}
