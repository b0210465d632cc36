// Command kubecheck validates Kubernetes manifests offline against the
// Kubernetes API's own types (k8s.io/api, from which the API's OpenAPI
// schemas are generated): every document must be an object of a kind it
// knows, decoded strictly, so that an unknown or misspelt field, a value
// of the wrong type or a field given twice is an error, as a schema
// validator's strict mode (kubeconform -strict) makes them. It needs no
// network: kubeconform fetches its JSON schemas from GitHub, which CI
// cannot reach.
//
//	go run . FILE.yaml...
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: kubecheck FILE.yaml...")
		os.Exit(2)
	}
	bad := false
	for _, path := range os.Args[1:] {
		objs, err := ValidateFile(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "kubecheck: %s: %v\n", path, err)
			bad = true
			continue
		}
		fmt.Printf("%s: %d objects valid\n", path, len(objs))
	}
	if bad {
		os.Exit(1)
	}
}

// kinds are the kinds kubecheck knows, by apiVersion and kind.
var kinds = map[[2]string]func() runtime.Object{
	{"v1", "PersistentVolumeClaim"}: func() runtime.Object { return &corev1.PersistentVolumeClaim{} },
	{"v1", "ConfigMap"}:             func() runtime.Object { return &corev1.ConfigMap{} },
	{"batch/v1", "Job"}:             func() runtime.Object { return &batchv1.Job{} },
}

// ValidateFile validates every document of a YAML file.
func ValidateFile(path string) ([]runtime.Object, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Validate(data)
}

// Validate decodes every document of a YAML stream strictly into the type
// of its apiVersion and kind.
func Validate(data []byte) ([]runtime.Object, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var objs []runtime.Object
	for i := 1; ; i++ {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		var head struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
		}
		if err := yaml.Unmarshal(doc, &head); err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		if head.APIVersion == "" && head.Kind == "" {
			continue // comments only
		}
		newObj, ok := kinds[[2]string{head.APIVersion, head.Kind}]
		if !ok {
			return nil, fmt.Errorf("document %d: no type for apiVersion %q kind %q (kubecheck knows PersistentVolumeClaim, ConfigMap and Job)", i, head.APIVersion, head.Kind)
		}
		obj := newObj()
		js, err := yaml.YAMLToJSONStrict(doc)
		if err != nil {
			return nil, fmt.Errorf("document %d (%s): %w", i, head.Kind, err)
		}
		// The API server's own strict decoding: unknown and duplicate
		// fields, with their paths.
		strict, err := kjson.UnmarshalStrict(js, obj)
		if err == nil && len(strict) > 0 {
			err = errors.Join(strict...)
		}
		if err != nil {
			return nil, fmt.Errorf("document %d (%s): %w", i, head.Kind, err)
		}
		objs = append(objs, obj)
	}
	if len(objs) == 0 {
		return nil, errors.New("no Kubernetes object")
	}
	return objs, nil
}
