package main

import (
	"slices"
	"testing"
)

func TestDatabaseReplicaURLsSetting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		value string
		want  []string
	}{
		{"unset means no replica", "", nil},
		{"one URL is one replica", "postgres://r1/app", []string{"postgres://r1/app"}},
		{"commas separate replicas, spaces and empty items aside", " postgres://r1/app, ,postgres://r2/app ", []string{"postgres://r1/app", "postgres://r2/app"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := loadConfig(env(map[string]string{"DATABASE_REPLICA_URLS": tt.value}))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(cfg.DatabaseReplicaURLs, tt.want) {
				t.Errorf("DatabaseReplicaURLs = %q, want %q", cfg.DatabaseReplicaURLs, tt.want)
			}
		})
	}
}
