package kubernetes

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// probePaths are the paths each probe must use: readiness asks whether the
// pod can serve (database, migrations, not draining), liveness only whether
// the process serves, so an outage never restarts pods.
var probePaths = map[string]string{"readiness": "/readyz", "liveness": "/livez"}

func TestManifests(t *testing.T) {
	t.Parallel()
	for _, overlay := range overlays {
		t.Run(overlay, func(t *testing.T) {
			t.Parallel()
			m := render(t, overlay)
			checkManifests(t, m)
		})
	}
}

func checkManifests(t *testing.T, m manifests) {
	if len(m.deployments) != 1 || len(m.services) != 1 || len(m.hpas) != 1 || len(m.pdbs) != 1 ||
		len(m.jobs) != 1 || len(m.configMaps) != 1 || len(m.networkPolicies) != 1 {
		t.Fatalf("want one each of Deployment, Service, HPA, PDB, Job, ConfigMap and NetworkPolicy, got %d %d %d %d %d %d %d",
			len(m.deployments), len(m.services), len(m.hpas), len(m.pdbs), len(m.jobs), len(m.configMaps), len(m.networkPolicies))
	}
	dep, job, cm := m.deployments[0], m.jobs[0], m.configMaps[0]
	podLabels := labels.Set(dep.Spec.Template.Labels)

	t.Run("the deployment runs at least two instances, spread over zones and nodes", func(t *testing.T) {
		if dep.Spec.Replicas == nil || *dep.Spec.Replicas < 2 {
			t.Errorf("replicas = %v, want 2 or more", dep.Spec.Replicas)
		}
		if len(dep.Spec.Template.Spec.TopologySpreadConstraints) == 0 {
			t.Error("no topologySpreadConstraints")
		}
		for _, c := range dep.Spec.Template.Spec.TopologySpreadConstraints {
			if !selects(t, c.LabelSelector, podLabels) {
				t.Errorf("the spread over %s does not select the deployment's pods", c.TopologyKey)
			}
		}
	})

	t.Run("every container of every pod is locked down and bounded", func(t *testing.T) {
		for name, pod := range map[string]corev1.PodSpec{"deployment": dep.Spec.Template.Spec, "job": job.Spec.Template.Spec} {
			if pod.AutomountServiceAccountToken == nil || *pod.AutomountServiceAccountToken {
				t.Errorf("%s mounts a service account token it does not need", name)
			}
			for _, c := range append(slices.Clone(pod.InitContainers), pod.Containers...) {
				checkContainer(t, name+"/"+c.Name, pod.SecurityContext, c)
			}
		}
	})

	t.Run("the deployment is probed on health paths and scraped by Prometheus", func(t *testing.T) {
		for _, c := range dep.Spec.Template.Spec.Containers {
			for kind, p := range map[string]*corev1.Probe{"readiness": c.ReadinessProbe, "liveness": c.LivenessProbe} {
				if p == nil || p.HTTPGet == nil || p.HTTPGet.Path != probePaths[kind] {
					t.Errorf("container %s: %s probe %+v, want an HTTP GET of %s", c.Name, kind, p, probePaths[kind])
				}
			}
		}
		ann := dep.Spec.Template.Annotations
		if ann["prometheus.io/scrape"] != "true" || ann["prometheus.io/port"] == "" || ann["prometheus.io/path"] == "" {
			t.Errorf("pod annotations %v, want prometheus.io/scrape, port and path", ann)
		}
	})

	t.Run("metrics are scraped on a port of their own that the Service does not expose", func(t *testing.T) {
		api := dep.Spec.Template.Spec.Containers[0]
		scrape := dep.Spec.Template.Annotations["prometheus.io/port"]
		if addr := envOf(t, m, api, "METRICS_ADDR"); addr != ":"+scrape {
			t.Errorf("METRICS_ADDR = %q, want :%s, the port Prometheus scrapes", addr, scrape)
		}
		var name string
		for _, p := range api.Ports {
			if strconv.Itoa(int(p.ContainerPort)) == scrape {
				name = p.Name
			}
		}
		if name == "" {
			t.Fatalf("no container port %s of the scrape", scrape)
		}
		for _, p := range m.services[0].Spec.Ports {
			if p.TargetPort.String() == name || p.TargetPort.String() == scrape {
				t.Errorf("the Service exposes the metrics port (%s): /metrics would be reachable through it", p.TargetPort.String())
			}
		}
		open := false
		for _, rule := range m.networkPolicies[0].Spec.Ingress {
			for _, p := range rule.Ports {
				open = open || p.Port != nil && p.Port.String() == scrape
			}
		}
		if !open {
			t.Errorf("the NetworkPolicy lets no scraper reach port %s", scrape)
		}
	})

	t.Run("a job migrates, and the instances do not", func(t *testing.T) {
		if args := job.Spec.Template.Spec.Containers[0].Args; !slices.Equal(args, []string{"migrate", "up"}) {
			t.Errorf("job args = %q, want migrate up", args)
		}
		if got := envOf(t, m, dep.Spec.Template.Spec.Containers[0], "MIGRATE_ON_START"); got != "false" {
			t.Errorf("the deployment's MIGRATE_ON_START = %q, want false", got)
		}
		if job.Spec.Template.Spec.Containers[0].Image != dep.Spec.Template.Spec.Containers[0].Image {
			t.Error("the job runs another image than the deployment")
		}
	})

	t.Run("secrets are referenced, never committed", func(t *testing.T) {
		for _, c := range dep.Spec.Template.Spec.Containers {
			if !slices.ContainsFunc(c.EnvFrom, func(e corev1.EnvFromSource) bool { return e.SecretRef != nil }) {
				t.Errorf("container %s references no Secret", c.Name)
			}
		}
		for key := range cm.Data {
			if strings.Contains(key, "SECRET") || strings.Contains(key, "DATABASE_") && key != "DATABASE_REPLICA_URLS" {
				t.Errorf("the ConfigMap holds %s, which belongs in the Secret", key)
			}
		}
	})

	t.Run("the service, budget, autoscaler and policy all point at the deployment", func(t *testing.T) {
		if !labels.SelectorFromSet(m.services[0].Spec.Selector).Matches(podLabels) {
			t.Error("the Service does not select the deployment's pods")
		}
		if !selects(t, m.pdbs[0].Spec.Selector, podLabels) {
			t.Error("the PodDisruptionBudget does not select the deployment's pods")
		}
		if pdb := m.pdbs[0].Spec.MinAvailable; pdb == nil || pdb.IntValue() < 1 || pdb.IntValue() >= int(*dep.Spec.Replicas) {
			t.Errorf("PodDisruptionBudget minAvailable = %v, want at least 1 and fewer than the %d replicas, so a drain can proceed", pdb, *dep.Spec.Replicas)
		}
		if !selects(t, &m.networkPolicies[0].Spec.PodSelector, podLabels) {
			t.Error("the NetworkPolicy does not select the deployment's pods")
		}
		hpa := m.hpas[0]
		if hpa.Spec.ScaleTargetRef.Kind != "Deployment" || hpa.Spec.ScaleTargetRef.Name != dep.Name {
			t.Errorf("the autoscaler scales %s %s, want Deployment %s", hpa.Spec.ScaleTargetRef.Kind, hpa.Spec.ScaleTargetRef.Name, dep.Name)
		}
		if hpa.Spec.MinReplicas == nil || *hpa.Spec.MinReplicas < 2 || *hpa.Spec.MinReplicas > hpa.Spec.MaxReplicas {
			t.Errorf("the autoscaler's replicas run %v to %d, want from 2 up", hpa.Spec.MinReplicas, hpa.Spec.MaxReplicas)
		}
		if !slices.ContainsFunc(hpa.Spec.Metrics, func(ms autoscalingv2.MetricSpec) bool {
			return ms.Resource != nil && ms.Resource.Name == corev1.ResourceCPU
		}) {
			t.Error("the autoscaler does not scale on CPU")
		}
	})
}

// checkContainer checks the policies of one container; the pod's security
// context supplies what the container's leaves out.
func checkContainer(t *testing.T, name string, pod *corev1.PodSecurityContext, c corev1.Container) {
	t.Helper()
	sc := c.SecurityContext
	if sc == nil {
		t.Errorf("%s has no securityContext", name)
		return
	}
	nonRoot := sc.RunAsNonRoot
	seccomp := sc.SeccompProfile
	if pod != nil {
		nonRoot = cmpOr(nonRoot, pod.RunAsNonRoot)
		seccomp = cmpOr(seccomp, pod.SeccompProfile)
	}
	if nonRoot == nil || !*nonRoot {
		t.Errorf("%s may run as root", name)
	}
	if sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
		t.Errorf("%s has a writable root filesystem", name)
	}
	if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
		t.Errorf("%s allows privilege escalation", name)
	}
	if sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") || len(sc.Capabilities.Add) > 0 {
		t.Errorf("%s does not drop all capabilities: %+v", name, sc.Capabilities)
	}
	if seccomp == nil || seccomp.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("%s seccompProfile = %+v, want RuntimeDefault", name, seccomp)
	}
	for _, res := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if _, ok := c.Resources.Requests[res]; !ok {
			t.Errorf("%s requests no %s", name, res)
		}
		if _, ok := c.Resources.Limits[res]; !ok {
			t.Errorf("%s has no %s limit", name, res)
		}
	}
	if strings.HasSuffix(c.Image, ":latest") || !strings.Contains(c.Image, ":") {
		t.Errorf("%s image %q is not pinned to a tag", name, c.Image)
	}
}

// selects reports whether the label selector s matches set.
func selects(t *testing.T, s *metav1.LabelSelector, set labels.Set) bool {
	t.Helper()
	sel, err := metav1.LabelSelectorAsSelector(s)
	if err != nil {
		t.Errorf("selector %v: %v", s, err)
		return false
	}
	return !sel.Empty() && sel.Matches(set)
}

// envOf returns the value container c gets for key, from its env or from
// the rendered ConfigMaps it loads.
func envOf(t *testing.T, m manifests, c corev1.Container, key string) string {
	t.Helper()
	for _, e := range c.Env {
		if e.Name == key {
			return e.Value
		}
	}
	for _, from := range c.EnvFrom {
		if from.ConfigMapRef == nil {
			continue
		}
		for _, cm := range m.configMaps {
			if cm.Name == from.ConfigMapRef.Name {
				if v, ok := cm.Data[key]; ok {
					return v
				}
			}
		}
	}
	return ""
}

func cmpOr[T any](a, b *T) *T {
	if a != nil {
		return a
	}
	return b
}
