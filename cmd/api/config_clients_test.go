package main

import (
	"maps"
	"strings"
	"testing"
)

func TestLoadConfigIntrospectionClients(t *testing.T) {
	t.Parallel()
	secret := strings.Repeat("s", minClientSecret)
	load := func(value string) (map[string]string, error) {
		cfg, err := loadConfig(func(key string) (string, bool) {
			if key == "INTROSPECTION_CLIENTS" {
				return value, true
			}
			return "", false
		})
		return cfg.Accounts.IntrospectionClients, err
	}
	ok := []struct {
		name, value string
		want        map[string]string
	}{
		{"unset lets none in", "", nil},
		{"one client", "billing:" + secret, map[string]string{"billing": secret}},
		{"two clients, spaces around the pairs", " billing:" + secret + " , shipping:" + secret + "x ", map[string]string{"billing": secret, "shipping": secret + "x"}},
	}
	for _, tt := range ok {
		t.Run(tt.name, func(t *testing.T) {
			got, err := load(tt.value)
			if err != nil || !maps.Equal(got, tt.want) {
				t.Errorf("clients %v, %v; want %v", got, err, tt.want)
			}
		})
	}
	refused := map[string]string{
		"a secret shorter than 32 bytes":  "billing:" + secret[1:],
		"a client given twice":            "billing:" + secret + ",billing:" + secret + "x",
		"a short secret given again long": "billing:short,billing:" + secret,
		"spaces around the id":            "billing :" + secret,
		"spaces around the secret":        "billing: " + secret,
		"no secret":                       "billing",
	}
	for name, value := range refused {
		t.Run(name+" is refused", func(t *testing.T) {
			if got, err := load(value); err == nil {
				t.Errorf("INTROSPECTION_CLIENTS=%q was accepted as %v", value, got)
			}
		})
	}
}
