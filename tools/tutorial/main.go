// Command tutorial follows a newcomer's path literally, as a student on a
// fresh clone would: the README's marked commands (the first check, the
// first chart, the five commands that show what mcheck finds), run in a
// clone, then the tutorial docs/tutorial.md, "Write and check your own
// election algorithm", in a new module next to that clone. In a temporary
// directory outside the repository it puts a copy of the repository's
// tracked files in ./mcheck (a clone), then takes each page's marked steps
// in order (see page.go): writes each file the page shows, runs each
// command block with bash and checks its exit status, compares the page's
// output excerpts with the real output, and applies the edits the prose
// asks for. Any step that does not work as written fails it.
//
//	go run ./tools/tutorial            # from the repository's root; .ci/run does
//	go run ./tools/tutorial -keep      # keep the directory to look around
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A page is followed from a directory of the student's: the README from the
// clone's root, the tutorial from the directory that holds the clone.
type page struct {
	path string // in the repository
	dir  string // where its commands start, in the temporary directory
}

// pages is the newcomer's path, in order.
var pages = []page{
	{path: "README.md", dir: "mcheck"},
	{path: "docs/tutorial.md", dir: "."},
}

func main() {
	root := flag.String("root", ".", "the repository whose pages to follow")
	keep := flag.Bool("keep", false, "keep the temporary directory")
	flag.Parse()
	if err := follow(*root, *keep, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "tutorial: %v\n", err)
		os.Exit(1)
	}
}

var locClaim = regexp.MustCompile(`(\d+) lines of Go`)

// loadTutorial reads the tutorial's steps and checks the page's count of
// lines of Go.
func loadTutorial(text string) ([]step, error) {
	steps, err := parseSteps(text, 0)
	if err != nil {
		return nil, err
	}
	loc := 0
	for _, s := range steps {
		if s.kind == fileStep {
			loc += linesOfCode(s.text)
		}
	}
	m := locClaim.FindStringSubmatch(text)
	if m == nil || m[1] != strconv.Itoa(loc) {
		return nil, fmt.Errorf("the tutorial's files have %d lines of Go; the page should say so (\"%d lines of Go\")", loc, loc)
	}
	return steps, nil
}

// loadReadme reads the README's steps: commands and their output only (a
// newcomer writes no file before the tutorial), at least the first check
// and the first chart.
func loadReadme(text string) ([]step, error) {
	steps, err := parseSteps(text, 0)
	if err != nil {
		return nil, err
	}
	var runs []string
	for _, s := range steps {
		switch s.kind {
		case runStep:
			runs = append(runs, s.text)
		case fileStep, editStep:
			return nil, fmt.Errorf("line %d: the README runs commands only; files and edits belong in the tutorial", s.line)
		}
	}
	for _, first := range []string{"go run ./cmd/mcheck --algo bully --n 4 --crash-any\n", "--msc "} {
		if !slices.ContainsFunc(runs, func(r string) bool { return strings.Contains(r, first) }) {
			return nil, fmt.Errorf("no <!-- run --> block runs %q: the first check and the first chart are part of the path", strings.TrimSpace(first))
		}
	}
	return steps, nil
}

func follow(root string, keep bool, log io.Writer) error {
	root, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	steps := make([][]step, len(pages))
	for i, p := range pages {
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p.path)))
		if err != nil {
			return err
		}
		load := loadTutorial
		if p.path == "README.md" {
			load = loadReadme
		}
		if steps[i], err = load(string(text)); err != nil {
			return fmt.Errorf("%s: %w", p.path, err)
		}
	}
	tmp, err := os.MkdirTemp("", "mcheck-tutorial-")
	if err != nil {
		return err
	}
	tmp, _ = filepath.EvalSymlinks(tmp)
	if rel, err := filepath.Rel(root, tmp); err == nil && !strings.HasPrefix(rel, "..") {
		return fmt.Errorf("the temporary directory %s is inside the repository; set TMPDIR elsewhere", tmp)
	}
	if keep {
		fmt.Fprintf(log, "tutorial: working in %s\n", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	if err := copyTracked(root, filepath.Join(tmp, "mcheck")); err != nil {
		return fmt.Errorf("copying the repository: %w", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	total := 0
	for i, p := range pages {
		if err := followPage(ctx, p.path, steps[i], tmp, filepath.Join(tmp, p.dir), log); err != nil {
			return err
		}
		total += len(steps[i])
	}
	fmt.Fprintf(log, "tutorial: %d steps of %d pages work as written\n", total, len(pages))
	return nil
}

// followPage takes one page's steps, starting in cwd.
func followPage(ctx context.Context, name string, steps []step, tmp, cwd string, log io.Writer) error {
	last := ""
	for _, s := range steps {
		where := fmt.Sprintf("%s:%d", name, s.line)
		switch s.kind {
		case fileStep:
			path := filepath.Join(cwd, filepath.FromSlash(s.path))
			fmt.Fprintf(log, "tutorial: %s: write %s\n", where, s.path)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
			if err := os.WriteFile(path, []byte(s.text), 0o644); err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
		case editStep:
			path := filepath.Join(cwd, filepath.FromSlash(s.path))
			fmt.Fprintf(log, "tutorial: %s: in %s, %s => %s\n", where, s.path, s.old, s.new)
			src, err := os.ReadFile(path)
			if err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
			if n := strings.Count(string(src), s.old); n != 1 {
				return fmt.Errorf("%s: the edit wants %q once in %s, found it %d times", where, s.old, s.path, n)
			}
			if err := os.WriteFile(path, []byte(strings.Replace(string(src), s.old, s.new, 1)), 0o644); err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
		case runStep:
			out, code, next, err := runBlock(ctx, cwd, tmp, s.text)
			for _, l := range strings.Split(strings.TrimRight(s.text, "\n"), "\n") {
				fmt.Fprintf(log, "tutorial: %s: $ %s\n", where, l)
			}
			log.Write(indent(out))
			if err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
			if code != s.exit {
				return fmt.Errorf("%s: the commands exited with status %d, the page expects %d:\n%s\noutput:\n%s", where, code, s.exit, s.text, out)
			}
			cwd, last = next, out
		case outputStep:
			if missing, ok := matchOutput(s.text, last); !ok {
				return fmt.Errorf("%s: the page shows the line %q, which is not in the real output (in this order):\n%s", where, missing, last)
			}
			fmt.Fprintf(log, "tutorial: %s: the output matches the page\n", where)
		}
	}
	return nil
}

// runBlock runs a block of commands with bash in dir, stopping at the first
// that fails (as a reader would), and returns the output, the exit status
// and the directory the commands ended in.
func runBlock(ctx context.Context, dir, tmp, block string) (out string, code int, cwd string, err error) {
	cwdFile := filepath.Join(tmp, ".cwd")
	script := "trap 'pwd > " + strconv.Quote(cwdFile) + "' EXIT\nset -e\n" + block
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = studentEnv()
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	runErr := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(runErr, &exit):
		code = exit.ExitCode()
	case runErr != nil:
		return b.String(), 0, "", runErr
	}
	where, err := os.ReadFile(cwdFile)
	if err != nil {
		return b.String(), code, "", fmt.Errorf("where did the commands end? %w", err)
	}
	return b.String(), code, strings.TrimSpace(string(where)), nil
}

// studentEnv is this environment without what would make the student's
// module differ from a fresh one: no workspace, no flags, no job summary.
func studentEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "GOWORK", "GOFLAGS", "GITHUB_STEP_SUMMARY":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GOWORK=off")
}

// copyTracked copies the files git tracks in root, as they are in the
// working tree, to dst: what a clone of the repository would hold.
func copyTracked(root, dst string) error {
	list, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		return fmt.Errorf("git ls-files: %w", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(list), "\x00"), "\x00") {
		src := filepath.Join(root, filepath.FromSlash(name))
		info, err := os.Lstat(src)
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the working tree
		}
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		data, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(to, data, info.Mode().Perm()); err != nil {
			return err
		}
	}
	return nil
}

func indent(s string) []byte {
	if s == "" {
		return nil
	}
	return []byte("    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ") + "\n")
}
