package workflow

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// dockerfileInstructions returns the Dockerfile's instructions, with
// continuation lines joined and comments dropped.
func dockerfileInstructions(t *testing.T) []string {
	t.Helper()
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(readFile(t, "Dockerfile"), "\n") {
		trimmed := strings.TrimSpace(line)
		if cur.Len() == 0 && (trimmed == "" || strings.HasPrefix(trimmed, "#")) {
			continue
		}
		if rest, ok := strings.CutSuffix(trimmed, `\`); ok {
			cur.WriteString(rest + " ")
			continue
		}
		cur.WriteString(trimmed)
		out = append(out, cur.String())
		cur.Reset()
	}
	return out
}

// fromImage returns the image of a FROM instruction, past its flags.
func fromImage(from string) string {
	for _, f := range strings.Fields(from)[1:] {
		if !strings.HasPrefix(f, "--") {
			return f
		}
	}
	return ""
}

// keyword returns an instruction's keyword, upper case.
func keyword(instr string) string {
	k, _, _ := strings.Cut(instr, " ")
	return strings.ToUpper(k)
}

func TestDockerfile(t *testing.T) {
	t.Parallel()
	instrs := dockerfileInstructions(t)
	var froms, users, healthchecks []string
	for _, in := range instrs {
		switch keyword(in) {
		case "FROM":
			froms = append(froms, in)
		case "USER":
			users = append(users, in)
		case "HEALTHCHECK":
			healthchecks = append(healthchecks, in)
		}
	}

	t.Run("it builds in one stage and ships from another", func(t *testing.T) {
		if len(froms) < 2 {
			t.Fatalf("FROM lines = %q, want a build stage and a final stage", froms)
		}
		if !strings.Contains(strings.ToUpper(froms[0]), " AS ") {
			t.Errorf("the first stage is not named: %s", froms[0])
		}
		if last := froms[len(froms)-1]; !strings.Contains(last, "distroless/static") {
			t.Errorf("the final stage is %s, want a distroless static image", last)
		}
	})

	t.Run("every base image is pinned to a tag", func(t *testing.T) {
		for _, from := range froms {
			image := fromImage(from)
			if !strings.Contains(image, ":") || strings.HasSuffix(image, ":latest") {
				t.Errorf("%s is not pinned to a tag", from)
			}
		}
	})

	t.Run("it downloads modules in their own layer before copying the source", func(t *testing.T) {
		download := slices.IndexFunc(instrs, func(s string) bool { return strings.Contains(s, "go mod download") })
		copyAll := slices.IndexFunc(instrs, func(s string) bool { return strings.HasPrefix(s, "COPY . ") })
		if download < 0 || copyAll < 0 || download > copyAll {
			t.Errorf("go mod download (instruction %d) must come before COPY . (instruction %d)", download, copyAll)
		}
	})

	t.Run("it builds on the builder's platform for the target's, with cached modules and packages", func(t *testing.T) {
		if !strings.Contains(froms[0], "--platform=$BUILDPLATFORM") {
			t.Errorf("the build stage %s does not run on $BUILDPLATFORM", froms[0])
		}
		build := dockerBuildCommand(t)
		for _, want := range []string{"GOOS=${TARGETOS}", "GOARCH=${TARGETARCH}", "--mount=type=cache,target=/go/pkg/mod", "--mount=type=cache,target=/root/.cache/go-build"} {
			if !strings.Contains(build, want) {
				t.Errorf("the build lacks %s: %s", want, build)
			}
		}
		for _, arg := range []string{"ARG TARGETOS", "ARG TARGETARCH"} {
			if !slices.Contains(instrs, arg) {
				t.Errorf("no %s: the build would not see the target platform", arg)
			}
		}
	})

	t.Run("it builds a static, trimmed, versioned binary", func(t *testing.T) {
		build := dockerBuildCommand(t)
		for _, want := range []string{"CGO_ENABLED=0", "-trimpath", "-X main.version=${VERSION}", "./cmd/api"} {
			if !strings.Contains(build, want) {
				t.Errorf("the build lacks %s: %s", want, build)
			}
		}
	})

	t.Run("it runs as a non-root user", func(t *testing.T) {
		if len(users) == 0 {
			t.Fatal("no USER: the container would run as root")
		}
		user := strings.Fields(users[len(users)-1])[1]
		name, _, _ := strings.Cut(user, ":")
		if name == "root" || name == "0" {
			t.Errorf("the final USER is %s", user)
		}
	})

	t.Run("it probes itself, having no shell or curl", func(t *testing.T) {
		if len(healthchecks) != 1 || !strings.Contains(healthchecks[0], `CMD ["/api", "healthcheck"]`) {
			t.Errorf("HEALTHCHECK = %q, want one running [\"/api\", \"healthcheck\"]", healthchecks)
		}
	})

	t.Run("it exposes the service port and starts the binary", func(t *testing.T) {
		if !slices.Contains(instrs, "EXPOSE 8080") {
			t.Error("no EXPOSE 8080")
		}
		if !slices.Contains(instrs, `ENTRYPOINT ["/api"]`) {
			t.Error(`no ENTRYPOINT ["/api"]`)
		}
	})

	t.Run("it copies no .env or secret into the image", func(t *testing.T) {
		for _, in := range instrs {
			if k := keyword(in); (k == "COPY" || k == "ADD") && strings.Contains(in, ".env") {
				t.Errorf("%s copies a .env file", in)
			}
		}
		ignored := strings.Fields(readFile(t, ".dockerignore"))
		for _, want := range []string{".env", ".env.*", ".git", "data/", "bin/", "**/node_modules"} {
			if !slices.Contains(ignored, want) {
				t.Errorf(".dockerignore does not exclude %s", want)
			}
		}
	})

	t.Run("every variable it sets is one the service reads", func(t *testing.T) {
		documented := envExampleKeys(t)
		for _, in := range instrs {
			if keyword(in) != "ENV" {
				continue
			}
			for _, m := range regexp.MustCompile(`([A-Z_]+)=`).FindAllStringSubmatch(in, -1) {
				if !documented[m[1]] {
					t.Errorf("ENV %s is not a variable of .env.example", m[1])
				}
			}
		}
	})
}

// dockerfileStage returns the instructions of the named stage, joined by
// newlines.
func dockerfileStage(t *testing.T, name string) string {
	t.Helper()
	var stage []string
	in := false
	for _, instr := range dockerfileInstructions(t) {
		if keyword(instr) == "FROM" {
			f := strings.Fields(instr)
			in = strings.EqualFold(f[len(f)-2], "AS") && f[len(f)-1] == name
		}
		if in {
			stage = append(stage, instr)
		}
	}
	if stage == nil {
		t.Fatalf("the Dockerfile has no stage %s", name)
	}
	return strings.Join(stage, "\n")
}

// dockerBuildCommand returns the Dockerfile's RUN instruction that builds
// the binary.
func dockerBuildCommand(t *testing.T) string {
	t.Helper()
	for _, in := range dockerfileInstructions(t) {
		if keyword(in) == "RUN" && strings.Contains(in, "go build") {
			return in
		}
	}
	t.Fatal("the Dockerfile has no RUN with go build")
	return ""
}

// compose is the part of docker-compose.yml the tests read.
type compose struct {
	Services map[string]composeService `yaml:"services"`
	Volumes  map[string]any            `yaml:"volumes"`
}

type composeService struct {
	Image       string                       `yaml:"image"`
	Build       any                          `yaml:"build"`
	Profiles    []string                     `yaml:"profiles"`
	Environment map[string]string            `yaml:"environment"`
	Ports       []string                     `yaml:"ports"`
	Volumes     []string                     `yaml:"volumes"`
	DependsOn   map[string]map[string]string `yaml:"depends_on"`
	Healthcheck struct {
		Test []string `yaml:"test"`
	} `yaml:"healthcheck"`
	Command    []string `yaml:"command"`
	Entrypoint []string `yaml:"entrypoint"`
	Deploy     struct {
		Replicas string `yaml:"replicas"`
	} `yaml:"deploy"`
}

func TestCompose(t *testing.T) {
	t.Parallel()
	var c compose
	if err := yaml.Unmarshal([]byte(readFile(t, "docker-compose.yml")), &c); err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	db, api, test := c.Services["db"], c.Services["api"], c.Services["test"]

	t.Run("the database is a pinned PostgreSQL with a readiness check and a named volume", func(t *testing.T) {
		if !strings.HasPrefix(db.Image, "postgres:") || strings.HasSuffix(db.Image, ":latest") {
			t.Errorf("db image = %q, want a pinned postgres tag", db.Image)
		}
		if !strings.Contains(strings.Join(db.Healthcheck.Test, " "), "pg_isready") {
			t.Errorf("db healthcheck = %q, want pg_isready", db.Healthcheck.Test)
		}
		if len(db.Volumes) == 0 {
			t.Fatal("db has no volume")
		}
		if name, _, _ := strings.Cut(db.Volumes[0], ":"); c.Volumes == nil || !hasKey(c.Volumes, name) {
			t.Errorf("db volume %q is not a named volume", db.Volumes[0])
		}
	})

	t.Run("the api is built here and waits for a healthy database", func(t *testing.T) {
		if api.Build == nil {
			t.Error("api has no build")
		}
		if got := api.DependsOn["db"]["condition"]; got != "service_healthy" {
			t.Errorf("api depends_on db condition = %q, want service_healthy", got)
		}
		if got := api.Environment["DATABASE_URL"]; !strings.HasPrefix(got, "postgres://") || !strings.Contains(got, "@db:5432/") {
			t.Errorf("api DATABASE_URL = %q, want the db service", got)
		}
		// A fixed default would pass the production check with a secret
		// everyone knows: the value must come from the environment.
		for _, name := range []string{"JWT_SECRET", "PAGING_CURSOR_SECRET", "IDEMPOTENCY_SECRET"} {
			if got := api.Environment[name]; !regexp.MustCompile(`^\$\{` + name + `(:-|:\?[^}]*)?\}$`).MatchString(got) {
				t.Errorf("api %s = %q, want ${%[1]s:-} or ${%[1]s:?...}, never a fixed default", name, got)
			}
		}
		if !slices.ContainsFunc(api.Ports, func(p string) bool { return strings.HasSuffix(p, ":8080") }) {
			t.Errorf("api ports = %q, want 8080 published", api.Ports)
		}
	})

	t.Run("the test profile runs the suite CI runs, in the image stage with Chromium, PostgreSQL and Node.js 20", func(t *testing.T) {
		if !slices.Contains(test.Profiles, "test") {
			t.Errorf("test profiles = %q, want test", test.Profiles)
		}
		if got := test.DependsOn["db"]["condition"]; got != "service_healthy" {
			t.Errorf("test depends_on db condition = %q, want service_healthy", got)
		}
		if !strings.Contains(test.Environment["TEST_DATABASE_URL"], "@db:5432/") || test.Environment["CI"] != "true" {
			t.Errorf("test environment = %v, want TEST_DATABASE_URL on db and CI=true", test.Environment)
		}
		if cmd := strings.Join(test.Command, " "); cmd != "go test ./..." {
			t.Errorf("test command = %q, want the README's go test ./...", cmd)
		}
		build, _ := test.Build.(map[string]any)
		if build["target"] != "test" {
			t.Fatalf("test build = %v, want the Dockerfile's test stage", test.Build)
		}
		stage := dockerfileStage(t, "test")
		for _, pkg := range []string{"chromium", "postgresql"} {
			if !strings.Contains(stage, " "+pkg) {
				t.Errorf("the Dockerfile's test stage does not install %s", pkg)
			}
		}
		// Debian 12's nodejs is 18, older than Redocly's floor: node and
		// npm come from the official image of a Node.js 20 or newer.
		if strings.Contains(stage, " nodejs") {
			t.Errorf("the Dockerfile's test stage installs Debian's nodejs (18), want Node.js 20 or newer")
		}
		node := dockerfileStage(t, "node")
		image := fromImage(strings.SplitN(node, "\n", 2)[0])
		major, _, _ := strings.Cut(strings.TrimPrefix(image, "node:"), ".")
		if n, err := strconv.Atoi(major); err != nil || n < 20 || !strings.HasPrefix(image, "node:") {
			t.Errorf("the node stage is %s, want node:20 or newer", image)
		}
		for _, want := range []string{"COPY --from=node /usr/local/bin/node ", "COPY --from=node /usr/local/lib/node_modules/npm "} {
			if !strings.Contains(stage, want) {
				t.Errorf("the Dockerfile's test stage lacks %q", want)
			}
		}
	})

	t.Run("the api variables are the service's", func(t *testing.T) {
		documented := envExampleKeys(t)
		for key := range api.Environment {
			if !documented[key] {
				t.Errorf("api sets %s, which .env.example does not document", key)
			}
		}
	})
}

func hasKey(m map[string]any, key string) bool {
	_, ok := m[key]
	return ok
}
