package kubernetes

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// manifests are the objects one overlay renders, by kind.
type manifests struct {
	deployments     []*appsv1.Deployment
	services        []*corev1.Service
	configMaps      []*corev1.ConfigMap
	hpas            []*autoscalingv2.HorizontalPodAutoscaler
	pdbs            []*policyv1.PodDisruptionBudget
	jobs            []*batchv1.Job
	networkPolicies []*networkingv1.NetworkPolicy
}

// render runs kustomize build on the overlay dir (relative to
// deploy/kubernetes) and decodes what it prints.
func render(t *testing.T, dir string) manifests {
	t.Helper()
	root := testkit.RepoRoot(t)
	kustomize := testkit.Tool(t, "kustomize")
	cmd := exec.CommandContext(testkit.Context(t), kustomize, "build", filepath.Join(root, "deploy", "kubernetes", dir))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("kustomize build %s: %v\n%s", dir, err, stderr.String())
	}
	var m manifests
	for i, doc := range strings.Split(string(out), "\n---\n") {
		if err := m.add([]byte(doc)); err != nil {
			t.Fatalf("%s: object %d: %v\n%s", dir, i, err, doc)
		}
	}
	return m
}

// add decodes one object strictly into its k8s.io/api type: a field the
// type does not have, a typo say, is an error.
func (m *manifests) add(doc []byte) error {
	var meta metav1.TypeMeta
	if err := yaml.Unmarshal(doc, &meta); err != nil {
		return err
	}
	var obj any
	switch meta.APIVersion + " " + meta.Kind {
	case "apps/v1 Deployment":
		obj = appendNew(&m.deployments)
	case "v1 Service":
		obj = appendNew(&m.services)
	case "v1 ConfigMap":
		obj = appendNew(&m.configMaps)
	case "autoscaling/v2 HorizontalPodAutoscaler":
		obj = appendNew(&m.hpas)
	case "policy/v1 PodDisruptionBudget":
		obj = appendNew(&m.pdbs)
	case "batch/v1 Job":
		obj = appendNew(&m.jobs)
	case "networking.k8s.io/v1 NetworkPolicy":
		obj = appendNew(&m.networkPolicies)
	default:
		// A Secret among them would be a committed secret.
		return fmt.Errorf("unexpected object %s %s", meta.APIVersion, meta.Kind)
	}
	return yaml.UnmarshalStrict(doc, obj)
}

// appendNew appends a new *T to list and returns it.
func appendNew[T any](list *[]*T) *T {
	v := new(T)
	*list = append(*list, v)
	return v
}

// overlays are the kustomizations a deployment may apply.
var overlays = []string{"base", "overlays/production", "overlays/resource-server"}
