// Command image builds mcheck's container image without a container
// engine, and unpacks one, so that CI can build and test the image that
// deploy/kubernetes/indexed-job.yaml names (the Dockerfile builds the same
// image where Docker is at hand):
//
//	go run . build -o mcheck-image.tar   # from tools/image: the image, an OCI tarball
//	go run . unpack mcheck-image.tar DIR  # its file system, to run DIR/usr/local/bin/mcheck
//	go run . tag                          # the tag build gives (mcheck:TAG)
//	go run . check-manifest FILE.yaml mcheck-image.tar  # FILE.yaml runs that image, IfNotPresent
//
// The image is two static binaries (mcheck, and mcheck-job, which runs a
// swarm step in an image without a shell) as one layer on an empty base,
// run as a non-root user. Its tag is the version mcheck --version reports
// from its build information: a module version (v1.2.0), or devel for a
// build from a clone. The build is reproducible: the binaries are built
// with -trimpath and without VCS stamping, and every time in the image is
// the Unix epoch, so the same source gives the same digest.
//
// The tarball is an OCI image layout (oci-layout, index.json, blobs/)
// with a manifest.json beside it as docker save writes: docker load,
// podman load, kind load image-archive, ctr images import and crane push
// all read it.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "image: %v\n", err)
		os.Exit(2)
	}
}

const usage = "usage: image build [-o FILE.tar] | image unpack FILE.tar DIR | image tag | image check-manifest FILE.yaml IMAGE.tar"

// withBinaries builds the binaries of the repository this runs in into a
// temporary directory, and gives them to f while it exists.
func withBinaries(f func(binaries) error) error {
	root, err := repoRoot()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "mcheck-image-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bins, err := buildBinaries(root, tmp)
	if err != nil {
		return err
	}
	return f(bins)
}

func run(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("no command: %s", usage)
	}
	switch args[0] {
	case "build":
		out := "mcheck-image.tar"
		switch {
		case len(args) == 3 && args[1] == "-o":
			out = args[2]
		case len(args) != 1:
			return fmt.Errorf("build takes -o FILE.tar only: %s", usage)
		}
		return withBinaries(func(bins binaries) error {
			ref, digest, err := writeImage(bins, out)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s: %s (%s), %s\n", out, ref, digest, bins.version)
			return nil
		})
	case "unpack":
		if len(args) != 3 {
			return fmt.Errorf("unpack takes FILE.tar DIR: %s", usage)
		}
		ref, cfg, err := unpack(args[1], args[2])
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %s unpacked into %s (user %s, entrypoint %v)\n", args[1], ref, args[2], cfg.User, cfg.Entrypoint)
		return nil
	case "check-manifest":
		if len(args) != 3 {
			return fmt.Errorf("check-manifest takes FILE.yaml IMAGE.tar: %s", usage)
		}
		m, err := tarball.LoadManifest(func() (io.ReadCloser, error) { return os.Open(args[2]) })
		if err != nil {
			return fmt.Errorf("%s: reading manifest.json: %w", args[2], err)
		}
		if len(m) != 1 || len(m[0].RepoTags) != 1 {
			return fmt.Errorf("%s: manifest.json should name one image with one tag", args[2])
		}
		n, err := checkManifest(args[1], m[0].RepoTags[0])
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: its %d containers run %s, the image of %s, IfNotPresent\n", args[1], n, m[0].RepoTags[0], args[2])
		return nil
	case "tag":
		if len(args) != 1 {
			return fmt.Errorf("tag takes no arguments: %s", usage)
		}
		return withBinaries(func(bins binaries) error {
			_, err := fmt.Fprintln(stdout, imageName+":"+bins.tag)
			return err
		})
	}
	return fmt.Errorf("unknown command %q: %s", args[0], usage)
}
