package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/internal/slow"
)

// buildMcheck builds the mcheck command into a temporary directory.
func buildMcheck(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcheck")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/mcheck/mcheck/cmd/mcheck").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
}

// longSearch is a search that runs for minutes.
var longSearch = []string{"--algo", "bully", "--n", "5", "--crash-any", "--progress"}

// startUntilProgress starts the command and returns once it has printed
// its first progress line (so its signal handling is installed).
func startUntilProgress(t *testing.T, cmd *exec.Cmd) *bytes.Buffer {
	return startUntilLine(t, cmd, "")
}

// startUntilLine starts the command and returns once it has printed a
// line to stderr that starts with prefix.
func startUntilLine(t *testing.T, cmd *exec.Cmd, prefix string) *bytes.Buffer {
	t.Helper()
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	r := bufio.NewReader(stderr)
	for {
		line, err := r.ReadString('\n') // plain progress lines (stderr is a pipe)
		require.NoError(t, err, "the search ended before a progress line starting %q", prefix)
		if strings.HasPrefix(line, prefix) {
			break
		}
	}
	go func() { _, _ = r.WriteTo(new(bytes.Buffer)) }()
	return &stdout
}

// SIGTERM and SIGHUP stop a running check like Ctrl-C: the partial report,
// exit status 2, within about a second.
func TestStopSignalsGiveThePartialReport(t *testing.T) {
	slow.Test(t) // builds and runs the mcheck command
	bin := buildMcheck(t)
	for _, sig := range []struct {
		sig  syscall.Signal
		name string
	}{{syscall.SIGTERM, "SIGTERM"}, {syscall.SIGHUP, "SIGHUP"}, {syscall.SIGINT, "SIGINT (Ctrl-C)"}} {
		t.Run(sig.name, func(t *testing.T) {
			cmd := exec.Command(bin, longSearch...)
			stdout := startUntilProgress(t, cmd)
			sent := time.Now()
			require.NoError(t, cmd.Process.Signal(sig.sig))
			err := cmd.Wait()
			took := time.Since(sent)
			var exit *exec.ExitError
			require.True(t, errors.As(err, &exit), "exit: %v", err)
			require.Equal(t, ExitIncomplete, exit.ExitCode(), "stdout:\n%s", stdout)
			out := stdout.String()
			require.Contains(t, out, "search       INCOMPLETE: interrupted: "+sig.name+"\n")
			require.Contains(t, out, "SingleLeader  unknown  the search did not finish: interrupted: "+sig.name+"\n")
			require.Contains(t, out, "no property can be said to hold")
			require.NotContains(t, out, " holds")
			// A second on an idle machine; CI machines are shared.
			require.Less(t, took, 5*time.Second, "the report came %v after the signal", took)
			t.Logf("report %v after %s", took, sig.name)
		})
	}
}

// The run of the issue: SIGTERM while --max-queue auto searches bound 2,
// after bound 1 finished, is an incomplete check (it exited 0 with
// "search complete").
func TestSignalDuringDeepeningGivesTheIncompleteReport(t *testing.T) {
	slow.Test(t) // builds and runs the mcheck command
	cmd := exec.Command(buildMcheck(t), "--algo", "bully", "--n", "5", "--crash-any", "--max-queue", "auto", "--progress")
	stdout := startUntilLine(t, cmd, "mcheck: bound 2:")
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	err := cmd.Wait()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "exit: %v", err)
	require.Equal(t, ExitIncomplete, exit.ExitCode(), "stdout:\n%s", stdout)
	out := stdout.String()
	require.Contains(t, out, "search       INCOMPLETE: interrupted: SIGTERM at bound 2; the counts are those of bound 1, which finished\n")
	require.Contains(t, out, "stopped: interrupted: SIGTERM\n")
	require.NotContains(t, out, " holds")
}

// clockAt is a clock that reads the times given, one per call, after
// time 0, and then the last one again.
func clockAt(at ...time.Duration) func() time.Time {
	var mu sync.Mutex
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		d := at[0]
		if len(at) > 1 {
			at = at[1:]
		}
		return t0.Add(d)
	}
}

// A second signal after the window does not wait for the report (real
// signals, through signal.Notify).
func TestSecondSignalExitsAtOnce(t *testing.T) {
	var stderr syncBuffer
	exited := make(chan int, 1)
	ctx, release := stopOnSignalExit(&stderr, func(code int) { exited <- code }, clockAt(0, 2*time.Second))
	defer release()
	self, err := os.FindProcess(os.Getpid())
	require.NoError(t, err)
	require.NoError(t, self.Signal(syscall.SIGHUP))
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the first signal did not stop the search")
	}
	require.Equal(t, "SIGHUP", context.Cause(ctx).Error())
	require.Empty(t, exited, "the first signal must not exit")
	require.NoError(t, self.Signal(syscall.SIGTERM))
	select {
	case code := <-exited:
		require.Equal(t, ExitIncomplete, code)
	case <-time.After(5 * time.Second):
		t.Fatal("the second signal did not exit")
	}
	require.True(t, strings.HasPrefix(stderr.String(), "mcheck: SIGTERM again: exiting at once"), stderr.String())
}

// GNU timeout signals the child, then its process group: the child's
// second SIGTERM within the window is the same request, and the graceful
// stop goes on; one after the window exits at once. The signals come from
// a channel and the clock is given, so nothing sleeps.
func TestSignalsWithinTheWindowAreOneStop(t *testing.T) {
	for _, tc := range []struct {
		name  string
		after []time.Duration // when the signals after the first come
		exit  bool            // whether the last one exits
	}{
		{"doubled at once", []time.Duration{0}, false},
		{"doubled just inside the window", []time.Duration{sameStopWindow - time.Millisecond}, false},
		{"three inside the window", []time.Duration{time.Millisecond, 500 * time.Millisecond}, false},
		{"inside, then after the window", []time.Duration{100 * time.Millisecond, sameStopWindow}, true},
		{"after the window", []time.Duration{3 * time.Second}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sigs := make(chan os.Signal) // unbuffered: a send returns once the signal before it was acted on
			var stderr syncBuffer
			exited := make(chan int, 1)
			ctx, stop := watchStopSignals(sigs, &stderr, func(code int) { exited <- code }, clockAt(append([]time.Duration{0}, tc.after...)...))
			defer stop()
			send := func(sig os.Signal) bool {
				select {
				case sigs <- sig:
					return true
				case <-time.After(time.Second):
					return false // the watch no longer takes signals: it exited
				}
			}
			require.True(t, send(syscall.SIGTERM))
			<-ctx.Done()
			require.Equal(t, "SIGTERM", context.Cause(ctx).Error())
			for range tc.after {
				require.True(t, send(syscall.SIGTERM))
			}
			if !tc.exit {
				// This one is taken only once the last was acted on, and
				// reads the last time again: within the window too.
				require.True(t, send(syscall.SIGINT), "the watch stopped taking signals")
				require.Empty(t, exited, "a signal within the window must not exit")
				require.Empty(t, stderr.String())
				return
			}
			select {
			case code := <-exited:
				require.Equal(t, ExitIncomplete, code)
			case <-time.After(5 * time.Second):
				t.Fatal("the signal after the window did not exit")
			}
			require.Equal(t, "mcheck: SIGTERM again: exiting at once, without a report\n", stderr.String())
		})
	}
}
