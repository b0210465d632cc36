package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

const (
	modulePath = "github.com/mcheck/mcheck"
	imageName  = "mcheck"
	// user is a numeric UID and GID, so that a pod's runAsNonRoot can
	// verify it without an /etc/passwd in the image.
	user = "65532:65532"
)

// epoch is every time in the image, for a reproducible digest.
var epoch = time.Unix(0, 0).UTC()

// binaries are the image's programs, built from the repository.
type binaries struct {
	mcheck, job string // their paths
	version     string // mcheck's module version, from its build information
	tag         string
	goarch      string
}

// repoRoot is the nearest directory above the working directory whose
// go.mod is mcheck's.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			first, _, _ := strings.Cut(string(data), "\n")
			if strings.TrimSpace(first) == "module "+modulePath {
				return dir, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no directory above the working directory holds the go.mod of %s: run this inside a clone of mcheck", modulePath)
		}
		dir = parent
	}
}

// buildBinaries builds mcheck and mcheck-job statically into dir, for
// GOARCH (the host's, unless set).
func buildBinaries(root, dir string) (binaries, error) {
	b := binaries{mcheck: filepath.Join(dir, "mcheck"), job: filepath.Join(dir, "mcheck-job")}
	for _, p := range [][2]string{{b.mcheck, "./cmd/mcheck"}, {b.job, "./deploy/mcheck-job"}} {
		cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", p[0], p[1])
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			return b, fmt.Errorf("go build %s: %w\n%s", p[1], err, out)
		}
	}
	bi, err := buildinfo.ReadFile(b.mcheck)
	if err != nil {
		return b, fmt.Errorf("reading the build information of mcheck: %w", err)
	}
	if bi.Main.Path != modulePath {
		return b, fmt.Errorf("the mcheck built is of module %q, not %s", bi.Main.Path, modulePath)
	}
	b.version = bi.Main.Version
	if b.tag, err = tagOf(b.version); err != nil {
		return b, err
	}
	for _, s := range bi.Settings {
		if s.Key == "GOARCH" {
			b.goarch = s.Value
		}
	}
	if b.goarch == "" {
		return b, errors.New("the build information of mcheck names no GOARCH")
	}
	return b, nil
}

var tagChars = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$`)

// tagOf is the image tag of a module version: the version itself (a +
// becomes -, which a tag cannot hold), or devel for a build from a clone
// without VCS stamping, "(devel)".
func tagOf(version string) (string, error) {
	tag := strings.ReplaceAll(version, "+", "-")
	if version == "(devel)" {
		tag = "devel"
	}
	if !tagChars.MatchString(tag) {
		return "", fmt.Errorf("mcheck's module version %q makes no image tag", version)
	}
	return tag, nil
}

// layer is the image's one layer: the two programs in /usr/local/bin,
// owned by root (the user cannot change them), and a /tmp for the
// user (mcheck's spill files, HOME).
func layer(b binaries) (v1.Layer, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	dir := func(name string, mode int64) error {
		return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name + "/", Mode: mode, ModTime: epoch, Format: tar.FormatPAX})
	}
	file := func(name, from string) error {
		data, err := os.ReadFile(from)
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o755, Size: int64(len(data)), ModTime: epoch, Format: tar.FormatPAX}); err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	}
	for _, err := range []error{
		dir("tmp", 0o1777),
		dir("usr", 0o755), dir("usr/local", 0o755), dir("usr/local/bin", 0o755),
		file("usr/local/bin/mcheck", b.mcheck),
		file("usr/local/bin/mcheck-job", b.job),
		tw.Close(),
	} {
		if err != nil {
			return nil, fmt.Errorf("writing the layer: %w", err)
		}
	}
	data := buf.Bytes()
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(data)), nil
	}, tarball.WithMediaType(types.OCILayer))
}

// image is the layer on an empty base, with its configuration.
func image(b binaries) (v1.Image, error) {
	l, err := layer(b)
	if err != nil {
		return nil, err
	}
	img := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	img, err = mutate.ConfigFile(img, &v1.ConfigFile{
		Architecture: b.goarch,
		OS:           "linux",
		Created:      v1.Time{Time: epoch},
		Config: v1.Config{
			User:       user,
			Entrypoint: []string{"/usr/local/bin/mcheck"},
			Env:        []string{"PATH=/usr/local/bin", "HOME=/tmp"},
			WorkingDir: "/tmp",
			Labels: map[string]string{
				"org.opencontainers.image.title":   "mcheck",
				"org.opencontainers.image.source":  "https://" + modulePath,
				"org.opencontainers.image.version": b.version,
			},
		},
	})
	if err != nil {
		return nil, err
	}
	return mutate.Append(img, mutate.Addendum{
		Layer:     l,
		MediaType: types.OCILayer,
		History:   v1.History{Created: v1.Time{Time: epoch}, CreatedBy: "tools/image: mcheck and mcheck-job, static, in /usr/local/bin"},
	})
}

// dockerManifest is one entry of docker save's manifest.json.
type dockerManifest struct {
	Config   string
	RepoTags []string
	Layers   []string
}

// writeImage writes the image as an OCI tarball at out, and returns its
// reference and digest.
func writeImage(b binaries, out string) (ref string, digest v1.Hash, err error) {
	img, err := image(b)
	if err != nil {
		return "", v1.Hash{}, err
	}
	ref = imageName + ":" + b.tag
	dir, err := os.MkdirTemp("", "mcheck-layout-")
	if err != nil {
		return "", v1.Hash{}, err
	}
	defer os.RemoveAll(dir)
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		return "", v1.Hash{}, fmt.Errorf("writing the OCI layout: %w", err)
	}
	if err := p.AppendImage(img, layout.WithAnnotations(map[string]string{
		"org.opencontainers.image.ref.name": b.tag,
		// The name containerd (ctr images import, kind) gives the image.
		"io.containerd.image.name": "docker.io/library/" + ref,
	})); err != nil {
		return "", v1.Hash{}, fmt.Errorf("writing the OCI layout: %w", err)
	}
	cfg, err := img.ConfigName()
	if err != nil {
		return "", v1.Hash{}, err
	}
	dm := dockerManifest{Config: blobPath(cfg), RepoTags: []string{ref}}
	layers, err := img.Layers()
	if err != nil {
		return "", v1.Hash{}, err
	}
	for _, l := range layers {
		d, err := l.Digest()
		if err != nil {
			return "", v1.Hash{}, err
		}
		dm.Layers = append(dm.Layers, blobPath(d))
	}
	data, err := json.Marshal([]dockerManifest{dm})
	if err != nil {
		return "", v1.Hash{}, err
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), data, 0o644); err != nil {
		return "", v1.Hash{}, err
	}
	if err := tarDir(dir, out); err != nil {
		return "", v1.Hash{}, fmt.Errorf("writing %s: %w", out, err)
	}
	digest, err = img.Digest()
	return ref, digest, err
}

func blobPath(h v1.Hash) string { return path.Join("blobs", h.Algorithm, h.Hex) }

// tarDir writes the files under dir to a tar file, in lexical order and
// with the epoch as every time.
func tarDir(dir, out string) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	tw := tar.NewWriter(w)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if d.IsDir() {
			return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name + "/", Mode: 0o755, ModTime: epoch})
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: int64(len(data)), ModTime: epoch}); err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	})
	for _, e := range []error{err, tw.Close(), w.Flush(), f.Close()} {
		if e != nil {
			return e
		}
	}
	return nil
}

// unpack reads the OCI tarball file both ways a loader does (docker
// save's manifest.json, and the OCI layout's index.json, which must name
// the same image) and writes the image's file system into dir. It
// returns the image's reference and configuration.
func unpack(file, dir string) (string, v1.Config, error) {
	m, err := tarball.LoadManifest(func() (io.ReadCloser, error) { return os.Open(file) })
	if err != nil {
		return "", v1.Config{}, fmt.Errorf("%s: reading manifest.json: %w", file, err)
	}
	if len(m) != 1 || len(m[0].RepoTags) != 1 {
		return "", v1.Config{}, fmt.Errorf("%s: manifest.json should name one image with one tag, not %+v", file, m)
	}
	ref := m[0].RepoTags[0]
	img, err := tarball.ImageFromPath(file, nil)
	if err != nil {
		return "", v1.Config{}, fmt.Errorf("%s: %w", file, err)
	}
	// docker load makes a manifest of its own from manifest.json: the
	// two agree when they name the same configuration (which names the
	// layers' contents).
	cfgName, err := img.ConfigName()
	if err != nil {
		return "", v1.Config{}, fmt.Errorf("%s: %w", file, err)
	}
	ociCfgName, err := layoutConfig(file, ref)
	if err != nil {
		return "", v1.Config{}, fmt.Errorf("%s: %w", file, err)
	}
	if ociCfgName != cfgName {
		return "", v1.Config{}, fmt.Errorf("%s: index.json gives %s the configuration %s, manifest.json %s", file, ref, ociCfgName, cfgName)
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return "", v1.Config{}, fmt.Errorf("%s: %w", file, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", v1.Config{}, err
	}
	rc := mutate.Extract(img)
	defer rc.Close()
	if err := untar(rc, dir); err != nil {
		return "", v1.Config{}, fmt.Errorf("%s: unpacking its file system: %w", file, err)
	}
	return ref, cfg.Config, nil
}

// layoutConfig is the configuration's digest of the image that the OCI
// layout in the tarball file names with ref's tag.
func layoutConfig(file, ref string) (v1.Hash, error) {
	dir, err := os.MkdirTemp("", "mcheck-layout-")
	if err != nil {
		return v1.Hash{}, err
	}
	defer os.RemoveAll(dir)
	f, err := os.Open(file)
	if err != nil {
		return v1.Hash{}, err
	}
	defer f.Close()
	if err := untar(f, dir); err != nil {
		return v1.Hash{}, err
	}
	idx, err := layout.ImageIndexFromPath(dir)
	if err != nil {
		return v1.Hash{}, fmt.Errorf("not an OCI image layout: %w", err)
	}
	im, err := idx.IndexManifest()
	if err != nil {
		return v1.Hash{}, err
	}
	_, tag, _ := strings.Cut(ref, ":")
	for _, d := range im.Manifests {
		if d.Annotations["org.opencontainers.image.ref.name"] == tag {
			img, err := idx.Image(d.Digest)
			if err != nil {
				return v1.Hash{}, err
			}
			return img.ConfigName()
		}
	}
	return v1.Hash{}, fmt.Errorf("index.json names no image %s", tag)
}

// untar writes the directories and regular files of a tar stream under
// dir, refusing any other kind of entry and any path that leaves dir.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := path.Clean("/" + h.Name)[1:]
		if name == "" {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
			// The mode as the image has it (1777 for /tmp), but never
			// one that would stop this process writing beneath it.
			if err := os.Chmod(p, fs.FileMode(h.Mode&0o777)|0o700|modeBits(h.Mode)); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, fs.FileMode(h.Mode&0o777))
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		default:
			return fmt.Errorf("%s: an entry of type %q, where only directories and regular files are expected", h.Name, h.Typeflag)
		}
	}
}

// modeBits is the sticky bit of a tar mode as a file mode.
func modeBits(m int64) fs.FileMode {
	if m&0o1000 != 0 {
		return fs.ModeSticky
	}
	return 0
}
