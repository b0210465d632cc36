package main

import (
	"fmt"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
)

const manifest = "../../deploy/kubernetes/indexed-job.yaml"

// The swarm's manifest is valid against the API's types, and its parts fit
// together: an Indexed Job of K members, each told it is one of K and
// writing member-I-of-K.json to the shared claim, and a merge Job,
// suspended until the members are done, that reads K's files from it.
func TestSwarmManifest(t *testing.T) {
	objs, err := ValidateFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 3 {
		t.Fatalf("%d objects, want a claim and two Jobs", len(objs))
	}
	claim, ok1 := objs[0].(*corev1.PersistentVolumeClaim)
	members, ok2 := objs[1].(*batchv1.Job)
	merge, ok3 := objs[2].(*batchv1.Job)
	if !ok1 || !ok2 || !ok3 {
		t.Fatalf("want a PersistentVolumeClaim, the members' Job and the merge's, got %T, %T, %T", objs[0], objs[1], objs[2])
	}
	if m := claim.Spec.AccessModes; len(m) != 1 || m[0] != corev1.ReadWriteMany {
		t.Errorf("the results' claim must be ReadWriteMany (every member's pod writes to it), not %v", m)
	}
	s := members.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		t.Fatal("the members' Job must be Indexed: JOB_COMPLETION_INDEX is the member's index")
	}
	if s.Completions == nil || s.Parallelism == nil || *s.Completions != *s.Parallelism {
		t.Fatal("the members' Job runs all its completions at once")
	}
	k := int(*s.Completions)
	member := command(t, members)
	for _, want := range []string{fmt.Sprintf("mcheck-job /results/member-$(JOB_COMPLETION_INDEX)-of-%d.json mcheck ", k), fmt.Sprintf(" --shard /%d ", k), " --json-out /results/"} {
		if !strings.Contains(member+" ", want) {
			t.Errorf("the members' command has no %q: %s", want, member)
		}
	}
	if merge.Spec.Suspend == nil || !*merge.Spec.Suspend {
		t.Error("the merge Job starts suspended, until the members are done: else it may read an earlier swarm's results")
	}
	if m := command(t, merge); m != fmt.Sprintf("mcheck-job /results/merged.json mcheck merge --json-out /results/merged.json /results/member-*-of-%d.json", k) {
		t.Errorf("the merge reads another K's files than %d: %s", k, m)
	}
	for _, job := range []*batchv1.Job{members, merge} {
		p := job.Spec.Template.Spec
		if p.RestartPolicy != corev1.RestartPolicyNever {
			t.Errorf("%s: restartPolicy Never: a pod that failed is a new attempt", job.Name)
		}
		if len(p.Volumes) != 1 || p.Volumes[0].PersistentVolumeClaim == nil || p.Volumes[0].PersistentVolumeClaim.ClaimName != claim.Name {
			t.Errorf("%s: mounts another volume than the claim %s", job.Name, claim.Name)
		}
		if m := p.Containers[0].VolumeMounts; len(m) != 1 || m[0].MountPath != "/results" || m[0].Name != p.Volumes[0].Name {
			t.Errorf("%s: the claim must be at /results", job.Name)
		}
	}
}

// command is the command line a Job's one container runs: mcheck-job and
// its arguments, for the image has no shell.
func command(t *testing.T, job *batchv1.Job) string {
	t.Helper()
	c := job.Spec.Template.Spec.Containers
	if len(c) != 1 || len(c[0].Command) == 0 || c[0].Command[0] != "mcheck-job" {
		t.Fatalf("%s: want one container running mcheck-job (the image has no shell)", job.Name)
	}
	return strings.Join(append(append([]string{}, c[0].Command...), c[0].Args...), " ")
}

// What a schema validator refuses, kubecheck refuses.
func TestValidateRefuses(t *testing.T) {
	job := func(spec string) string {
		return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\nspec:\n" + spec
	}
	for _, c := range []struct{ name, yaml, want string }{
		{"a misspelt field", job("  completionMod: Indexed\n"), `unknown field "spec.completionMod"`},
		{"a wrong type", job("  completions: four\n"), "cannot unmarshal string into Go struct field JobSpec.spec.completions of type int32"},
		{"a field twice", job("  completions: 4\n  completions: 5\n"), `key "completions" already set in map`},
		{"a kind it does not know", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n", `no type for apiVersion "apps/v1" kind "Deployment"`},
		{"a deep typo", job("  template:\n    spec:\n      containers:\n        - name: c\n          imagee: x\n"), `unknown field "spec.template.spec.containers[0].imagee"`},
		{"nothing", "# only a comment\n", "no Kubernetes object"},
	} {
		_, err := Validate([]byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
}
