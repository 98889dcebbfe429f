package kubernetes

import (
	"net/url"
	"slices"
	"testing"

	networkingv1 "k8s.io/api/networking/v1"
)

// TestIssuerEgress checks the NetworkPolicy's way out to a fleet's issuer
// (docs/fleet.md): a resource server's pods may reach it on 443 and on an
// in-cluster issuer's named port http, and a service that trusts no
// issuer reaches nothing but DNS and PostgreSQL.
func TestIssuerEgress(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		overlay string
		issuer  bool
	}{
		{"base", false},
		{"overlays/production", false},
		{"overlays/resource-server", true},
	} {
		t.Run(tc.overlay, func(t *testing.T) {
			t.Parallel()
			m := render(t, tc.overlay)
			if len(m.networkPolicies) != 1 || len(m.configMaps) != 1 {
				t.Fatalf("want one NetworkPolicy and one ConfigMap, got %d and %d", len(m.networkPolicies), len(m.configMaps))
			}
			ports := egressPorts(m.networkPolicies[0])
			want := []string{"53/TCP", "53/UDP", "5432/TCP"}
			if tc.issuer {
				want = []string{"443/TCP", "53/TCP", "53/UDP", "5432/TCP", "http/TCP"}
			}
			if !slices.Equal(ports, want) {
				t.Errorf("egress ports = %q, want %q", ports, want)
			}
			iss := m.configMaps[0].Data["AUTH_ISSUER"]
			if !tc.issuer {
				if iss != "" {
					t.Errorf("AUTH_ISSUER = %q without a way out to it", iss)
				}
				return
			}
			if u, err := url.Parse(iss); err != nil || u.Scheme != "https" || u.Host == "" {
				t.Errorf("AUTH_ISSUER = %q, want an https URL (production refuses another)", iss)
			}
		})
	}
}

// egressPorts lists every port an egress rule of p opens, as port/protocol,
// sorted.
func egressPorts(p *networkingv1.NetworkPolicy) []string {
	var ports []string
	for _, rule := range p.Spec.Egress {
		for _, port := range rule.Ports {
			s := "any"
			if port.Port != nil {
				s = port.Port.String()
			}
			proto := "TCP"
			if port.Protocol != nil {
				proto = string(*port.Protocol)
			}
			ports = append(ports, s+"/"+proto)
		}
	}
	slices.Sort(ports)
	return ports
}
