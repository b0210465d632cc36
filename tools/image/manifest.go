package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

var (
	imageLine  = regexp.MustCompile(`(?m)^\s*(?:-\s+)?image:\s*"?([^"\s#]+)"?`)
	policyLine = regexp.MustCompile(`(?m)^\s*(?:-\s+)?imagePullPolicy:\s*"?([^"\s#]+)"?`)
)

// checkManifest says whether every container of the Kubernetes manifest
// file runs the image ref with imagePullPolicy IfNotPresent: an image
// loaded into a cluster's nodes (kind load, ctr import) is then used
// without asking a registry. (tools/kubecheck checks the manifest's
// structure; this checks only what it says of the image.)
func checkManifest(file, ref string) (containers int, err error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	images := imageLine.FindAllStringSubmatch(string(data), -1)
	policies := policyLine.FindAllStringSubmatch(string(data), -1)
	if len(images) == 0 {
		return 0, fmt.Errorf("%s names no image", file)
	}
	var bad []string
	for _, m := range images {
		if m[1] != ref {
			bad = append(bad, fmt.Sprintf("image %s, not %s, the image tools/image builds", m[1], ref))
		}
	}
	for _, m := range policies {
		if m[1] != "IfNotPresent" {
			bad = append(bad, fmt.Sprintf("imagePullPolicy %s, not IfNotPresent", m[1]))
		}
	}
	if len(policies) != len(images) {
		bad = append(bad, fmt.Sprintf("%d images but %d imagePullPolicy IfNotPresent: each container needs one (the default pulls a tag from a registry when it is latest)", len(images), len(policies)))
	}
	if len(bad) > 0 {
		return 0, fmt.Errorf("%s: %s", file, strings.Join(bad, "; "))
	}
	return len(images), nil
}
