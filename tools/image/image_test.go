package main

import (
	"archive/tar"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTagOf(t *testing.T) {
	for version, want := range map[string]string{
		"(devel)": "devel",
		"v0.4.0":  "v0.4.0",
		"v0.0.0-20260101120000-5d087f4aaaaa+dirty": "v0.0.0-20260101120000-5d087f4aaaaa-dirty",
	} {
		got, err := tagOf(version)
		if err != nil || got != want {
			t.Errorf("tagOf(%q) = %q, %v; want %q", version, got, err, want)
		}
	}
	if _, err := tagOf(""); err == nil {
		t.Error("tagOf(\"\") gave a tag")
	}
}

// fakeBinaries stands scripts in for the two programs, so that the image
// is built and unpacked without compiling mcheck.
func fakeBinaries(t *testing.T) binaries {
	dir := t.TempDir()
	b := binaries{mcheck: filepath.Join(dir, "mcheck"), job: filepath.Join(dir, "mcheck-job"), version: "(devel)", tag: "devel", goarch: "amd64"}
	for _, p := range []string{b.mcheck, b.job} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\necho "+filepath.Base(p)+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

func TestImageIsReproducibleAndUnpacks(t *testing.T) {
	b := fakeBinaries(t)
	dir := t.TempDir()
	var tars [2][]byte
	for i := range tars {
		out := filepath.Join(dir, "image.tar")
		ref, _, err := writeImage(b, out)
		if err != nil {
			t.Fatal(err)
		}
		if ref != "mcheck:devel" {
			t.Errorf("ref %q, want mcheck:devel", ref)
		}
		if tars[i], err = os.ReadFile(out); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(tars[0], tars[1]) {
		t.Error("two builds of the same binaries gave different tarballs")
	}

	root := filepath.Join(dir, "root")
	ref, cfg, err := unpack(filepath.Join(dir, "image.tar"), root)
	if err != nil {
		t.Fatal(err)
	}
	if ref != "mcheck:devel" || cfg.User != "65532:65532" || strings.Join(cfg.Entrypoint, " ") != "/usr/local/bin/mcheck" {
		t.Errorf("unpacked %s with user %q and entrypoint %v", ref, cfg.User, cfg.Entrypoint)
	}
	var got []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		got = append(got, rel+" "+fi.Mode().String())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{". drwxr-xr-x", "tmp dtrwxrwxrwx", "usr drwxr-xr-x", "usr/local drwxr-xr-x", "usr/local/bin drwxr-xr-x",
		"usr/local/bin/mcheck -rwxr-xr-x", "usr/local/bin/mcheck-job -rwxr-xr-x"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the unpacked tree:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	data, err := os.ReadFile(filepath.Join(root, "usr/local/bin/mcheck-job"))
	if err != nil || string(data) != "#!/bin/sh\necho mcheck-job\n" {
		t.Errorf("usr/local/bin/mcheck-job holds %q, %v", data, err)
	}
}

// The manifest runs the image CI builds: a build from a clone, without
// VCS stamping (tools/image builds with -buildvcs=false), has the module
// version (devel).
func TestManifestRunsTheImageCIBuilds(t *testing.T) {
	tag, err := tagOf("(devel)")
	if err != nil {
		t.Fatal(err)
	}
	n, err := checkManifest("../../deploy/kubernetes/indexed-job.yaml", imageName+":"+tag)
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("%d containers, want 2 (the members and the merge)", n)
	}
}

func TestCheckManifestRefuses(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"      containers:\n        - name: m\n          image: mcheck:latest\n          imagePullPolicy: IfNotPresent\n", "image mcheck:latest, not mcheck:devel"},
		{"      containers:\n        - name: m\n          image: mcheck:devel\n", "1 images but 0 imagePullPolicy IfNotPresent"},
		{"      containers:\n        - name: m\n          image: mcheck:devel\n          imagePullPolicy: Always\n", "imagePullPolicy Always, not IfNotPresent"},
		{"kind: Job\n", "names no image"},
	} {
		file := filepath.Join(t.TempDir(), "job.yaml")
		if err := os.WriteFile(file, []byte(c.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := checkManifest(file, "mcheck:devel")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one with %q", c.yaml, err, c.want)
		}
	}
}

func TestUntarRefusesLinks(t *testing.T) {
	// A symbolic link could lead a later entry out of the directory.
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeSymlink, Name: "etc", Linkname: "/etc"}); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	err := untar(&buf, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "only directories and regular files") {
		t.Errorf("untar of a link: %v", err)
	}
}
