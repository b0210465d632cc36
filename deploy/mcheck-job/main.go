// Command mcheck-job runs one step of a swarm (a member, or the merge) in
// an image that has no shell, and says by its exit status whether the step
// produced its result:
//
//	mcheck-job RESULT mcheck FLAGS...
//
// It removes RESULT (an earlier swarm's, left on the volume, must not pass
// for this one's), runs the command, and exits 0 when the command exited 0,
// 1 (a violation) or 3 (none found) and left RESULT non-empty: those are
// results, and a Job must not run the step again for them. Otherwise it
// exits with the command's status (2 when the command left no result yet
// exited 0), so that the Job retries a member that was evicted or ran out
// of memory. An argument with *, ? or [ is expanded as a shell would (the
// files it matches, in order; itself if none), so that a merge can read
// member-*-of-K.json and name the member that left no file. SIGTERM and SIGINT are passed on to the command, which then
// writes its partial report.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// meaning is what mcheck's exit statuses that carry a result say.
var meaning = map[int]string{
	0: "every checked property holds, or every Sometimes reached",
	1: "a violation",
	3: "none found, which proves nothing",
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) < 2 {
		fmt.Fprintln(stderr, "usage: mcheck-job RESULT COMMAND [ARG...]  (e.g. mcheck-job /results/merged.json mcheck merge --json-out /results/merged.json /results/member-0-of-2.json /results/member-1-of-2.json)")
		return 2
	}
	result := args[0]
	if err := os.Remove(result); err != nil && !errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(stderr, "mcheck-job: removing an earlier %s: %v\n", result, err)
		return 2
	}
	cmd := exec.Command(args[1], glob(args[2:])...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "mcheck-job: %v\n", err)
		return 2
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				_ = cmd.Process.Signal(s)
			case <-done:
				return
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	signal.Stop(sigs)

	status := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		status = exit.ExitCode()
		if status < 0 { // killed by a signal
			fmt.Fprintf(stderr, "mcheck-job: %s: %v\n", args[1], err)
			return 2
		}
	case err != nil:
		fmt.Fprintf(stderr, "mcheck-job: %s: %v\n", args[1], err)
		return 2
	}
	fi, statErr := os.Stat(result)
	left := statErr == nil && fi.Mode().IsRegular() && fi.Size() > 0
	m, isResult := meaning[status]
	switch {
	case isResult && left:
		fmt.Fprintf(stderr, "mcheck-job: %s exited %d (%s) and wrote %s\n", args[1], status, m, result)
		return 0
	case status == 0:
		fmt.Fprintf(stderr, "mcheck-job: %s exited 0 but wrote no %s\n", args[1], result)
		return 2
	default:
		fmt.Fprintf(stderr, "mcheck-job: %s exited %d and wrote no %s: not a result\n", args[1], status, result)
		return status
	}
}

// glob expands each argument that is a pattern of files, as sh does.
func glob(args []string) []string {
	var out []string
	for _, a := range args {
		if strings.ContainsAny(a, "*?[") {
			if m, err := filepath.Glob(a); err == nil && len(m) > 0 {
				out = append(out, m...) // sorted, as sh sorts them
				continue
			}
		}
		out = append(out, a)
	}
	return out
}
