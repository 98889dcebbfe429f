package workflow

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestComposeScaleProfile(t *testing.T) {
	t.Parallel()
	var c compose
	if err := yaml.Unmarshal([]byte(readFile(t, "docker-compose.yml")), &c); err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	primary, replica, api, lb := c.Services["db-primary"], c.Services["db-replica"], c.Services["api-replicas"], c.Services["lb"]

	t.Run("its services run only with the scale profile", func(t *testing.T) {
		for _, name := range []string{"db-primary", "db-replica", "api-replicas", "lb", "issuer", "resource"} {
			s, ok := c.Services[name]
			if !ok || len(s.Profiles) != 1 || s.Profiles[0] != "scale" {
				t.Errorf("service %s: profiles %q, want [scale]", name, s.Profiles)
			}
		}
	})

	t.Run("every image is pinned to a tag", func(t *testing.T) {
		for name, image := range map[string]string{"db-primary": primary.Image, "db-replica": replica.Image, "lb": lb.Image} {
			if !strings.Contains(image, ":") || strings.HasSuffix(image, ":latest") {
				t.Errorf("%s image %q is not pinned", name, image)
			}
		}
	})

	t.Run("the primary lets replicas stream and the replica copies it with pg_basebackup -R", func(t *testing.T) {
		init := mountedScript(t, primary.Volumes, "/docker-entrypoint-initdb.d/")
		if !strings.Contains(init, "host replication") {
			t.Errorf("the primary's init script does not allow replication connections:\n%s", init)
		}
		if len(replica.Entrypoint) != 1 {
			t.Fatalf("db-replica entrypoint = %q, want its script", replica.Entrypoint)
		}
		entry := mountedScript(t, replica.Volumes, replica.Entrypoint[0])
		for _, want := range []string{"pg_basebackup", "--host db-primary", "--write-recovery-conf", "--slot", "exec postgres"} {
			if !strings.Contains(entry, want) {
				t.Errorf("the replica's entrypoint lacks %s", want)
			}
		}
		for _, v := range slices.Concat(primary.Volumes, replica.Volumes) {
			if name, _, _ := strings.Cut(v, ":"); !strings.HasPrefix(name, ".") && !hasKey(c.Volumes, name) {
				t.Errorf("volume %q is neither a file here nor a named volume", v)
			}
		}
	})

	t.Run("several instances share one secret and read from the replica", func(t *testing.T) {
		if api.Build == nil {
			t.Error("api-replicas is not built here")
		}
		replicas := api.Deploy.Replicas
		if m := regexp.MustCompile(`^\$\{API_REPLICAS:-(\d+)\}$`).FindStringSubmatch(replicas); m != nil {
			replicas = m[1]
		}
		if n, err := strconv.Atoi(replicas); err != nil || n < 2 {
			t.Errorf("api-replicas deploy.replicas = %q, want 2 or more", api.Deploy.Replicas)
		}
		if got := api.Environment["DATABASE_URL"]; !strings.Contains(got, "@db-primary:5432/") {
			t.Errorf("DATABASE_URL = %q, want db-primary", got)
		}
		if got := api.Environment["DATABASE_REPLICA_URLS"]; !strings.Contains(got, "@db-replica:5432/") {
			t.Errorf("DATABASE_REPLICA_URLS = %q, want db-replica", got)
		}
		// Instances with development secrets of their own would reject
		// each other's tokens: the secret is required, never defaulted.
		if got := api.Environment["JWT_SECRET"]; !regexp.MustCompile(`^\$\{JWT_SECRET:\?[^}]*\}$`).MatchString(got) {
			t.Errorf("JWT_SECRET = %q, want ${JWT_SECRET:?...}", got)
		}
		if len(api.Ports) > 0 {
			t.Errorf("api-replicas publishes %q: many instances cannot share a host port, the load balancer does", api.Ports)
		}
		documented := envExampleKeys(t)
		for key := range api.Environment {
			if !documented[key] {
				t.Errorf("api-replicas sets %s, which .env.example does not document", key)
			}
		}
	})

	t.Run("an issuer and a resource server that trusts it by its URL in the compose network", func(t *testing.T) {
		issuer, resource := c.Services["issuer"], c.Services["resource"]
		for name, s := range map[string]composeService{"issuer": issuer, "resource": resource} {
			if s.Build == nil || len(s.Profiles) != 1 || s.Profiles[0] != "scale" {
				t.Errorf("%s: built %v, profiles %q; want the template built here, in the scale profile", name, s.Build != nil, s.Profiles)
			}
			if len(s.Volumes) != 1 || !strings.HasSuffix(s.Volumes[0], ":/data") || !hasKey(c.Volumes, strings.TrimSuffix(s.Volumes[0], ":/data")) {
				t.Errorf("%s volumes = %q, want a named volume of its own at /data (its database and keys)", name, s.Volumes)
			}
		}
		if issuer.Volumes[0] == resource.Volumes[0] {
			t.Errorf("issuer and resource share the volume %q", issuer.Volumes[0])
		}
		// The tokens' iss is the issuer's PUBLIC_URL, and the resource
		// server must expect exactly it, at an address it reaches: the
		// issuer's service name and the image's port.
		public := issuer.Environment["PUBLIC_URL"]
		if public != "http://issuer:8080" {
			t.Errorf("issuer PUBLIC_URL = %q, want http://issuer:8080", public)
		}
		if got := resource.Environment["AUTH_ISSUER"]; got != public {
			t.Errorf("resource AUTH_ISSUER = %q, want the issuer's PUBLIC_URL %q", got, public)
		}
		if issuer.Environment["AUTH_ISSUER"] != "" {
			t.Errorf("issuer trusts %q: it is the fleet's issuer", issuer.Environment["AUTH_ISSUER"])
		}
		// Published keys (Ed25519) are what a resource server verifies
		// with: an HS256 secret would make the issuer publish nothing.
		if _, ok := issuer.Environment["JWT_SIGNING_KEYS"]; !ok || issuer.Environment["JWT_SECRET"] != "" {
			t.Errorf("issuer signs with JWT_SIGNING_KEYS %q, JWT_SECRET %q; want signing keys, no secret", issuer.Environment["JWT_SIGNING_KEYS"], issuer.Environment["JWT_SECRET"])
		}
		for _, key := range []string{"JWT_SIGNING_KEYS", "JWT_SIGNING_KEYS_FILE", "JWT_SECRET", "PUBLIC_URL"} {
			if _, ok := resource.Environment[key]; ok {
				t.Errorf("resource sets %s: it signs nothing", key)
			}
		}
		// The resource server reads the issuer's metadata at start.
		if got := resource.DependsOn["issuer"]["condition"]; got != "service_healthy" {
			t.Errorf("resource depends on issuer with condition %q, want service_healthy", got)
		}
		if len(issuer.Ports) != 1 || len(resource.Ports) != 1 || issuer.Ports[0] == resource.Ports[0] {
			t.Errorf("ports: issuer %q, resource %q; want one each, different", issuer.Ports, resource.Ports)
		}
		documented := envExampleKeys(t)
		for name, s := range map[string]composeService{"issuer": issuer, "resource": resource} {
			for key := range s.Environment {
				if !documented[key] {
					t.Errorf("%s sets %s, which .env.example does not document", name, key)
				}
			}
		}
	})

	t.Run("the load balancer spreads requests over the instances", func(t *testing.T) {
		conf := mountedScript(t, lb.Volumes, "/etc/nginx/nginx.conf")
		if !strings.Contains(conf, "server api-replicas:8080") {
			t.Errorf("nginx.conf does not proxy to api-replicas:8080:\n%s", conf)
		}
		if len(lb.Ports) == 0 || !strings.HasSuffix(lb.Ports[0], ":8080") {
			t.Errorf("lb ports = %q, want its 8080 published", lb.Ports)
		}
	})
}

// mountedScript returns the content of the repository file that volumes
// mount at target (a path, or a directory ending in /).
func mountedScript(t *testing.T, volumes []string, target string) string {
	t.Helper()
	for _, v := range volumes {
		parts := strings.Split(v, ":")
		if len(parts) < 2 || !strings.HasPrefix(parts[0], "./") {
			continue
		}
		if parts[1] == target || strings.HasSuffix(target, "/") && strings.HasPrefix(parts[1], target) {
			return readFile(t, strings.TrimPrefix(parts[0], "./"))
		}
	}
	t.Fatalf("nothing in %q is mounted at %s", volumes, target)
	return ""
}
