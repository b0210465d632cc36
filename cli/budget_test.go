package cli

import (
	"bytes"
	"errors"
	"os/exec"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/internal/slow"
)

// The memory budget holds for the whole process: a search that would need
// gigabytes stops by itself, with its report, and the peak resident set
// stays under the budget (the issue asks for 10% at most above it).
func TestMemoryBudgetBoundsThePeakRSS(t *testing.T) {
	slow.Test(t) // builds and runs the mcheck command
	bin := buildMcheck(t)
	const budget = 96 << 20
	cmd := exec.Command(bin, "--algo", "bully", "--n", "3", "--crashes", "1", "--detector", "unreliable", "--continue", "--memory", "96MiB")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "exit: %v; %s", err, stderr.String())
	// Violations were found before the budget ran out: exit status 1.
	require.Equal(t, ExitViolation, exit.ExitCode(), stderr.String())
	require.Contains(t, stdout.String(), "search       INCOMPLETE: memory budget of 96.0 MiB reached\n")
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss * 1024 // kilobytes on Linux
	t.Logf("peak RSS %d MiB with a budget of %d MiB", rss>>20, budget>>20)
	require.Less(t, rss, int64(budget))
}

// The default budget leaves room for the rest of the machine.
func TestDefaultMemoryBudget(t *testing.T) {
	meminfo := "MemTotal:       24683008 kB\nMemFree:         1000000 kB\nMemAvailable:   20000000 kB\n"
	require.Equal(t, int64(24683008*1024/2), memoryBudgetFrom(meminfo, "max\n"))
	// Little available: three quarters of it.
	require.Equal(t, int64(8000000*1024*3/4), memoryBudgetFrom("MemTotal: 24683008 kB\nMemAvailable: 8000000 kB\n", ""))
	// A container's limit counts as the machine.
	require.Equal(t, int64(2<<30), memoryBudgetFrom(meminfo, "4294967296\n"))
	require.Equal(t, int64(8<<30), memoryBudgetFrom("", ""))
}

// The container's limit is read from cgroup v2 and v1, from the process's
// own group and every group above it (the lowest counts), and from the
// root of the hierarchy as a container sees it.
func TestCgroupLimits(t *testing.T) {
	const meminfo = "MemTotal: 16777216 kB\nMemAvailable: 16000000 kB\n" // 16 GiB
	files := func(m map[string]string) (func(string) string, *[]string) {
		var asked []string
		return func(name string) string { asked = append(asked, name); return m[name] }, &asked
	}
	// cgroup v2, nested: the limit is on a parent of the process's group.
	read, asked := files(map[string]string{
		"/sys/fs/cgroup/user.slice/memory.max":                                 "max\n",
		"/sys/fs/cgroup/user.slice/user-1000.slice/memory.max":                 "2147483648\n",
		"/sys/fs/cgroup/user.slice/user-1000.slice/session-3.scope/memory.max": "max\n",
	})
	limits := cgroupLimits("0::/user.slice/user-1000.slice/session-3.scope\n", read)
	require.Equal(t, []string{
		"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes",
		"/sys/fs/cgroup/user.slice/user-1000.slice/session-3.scope/memory.max",
		"/sys/fs/cgroup/user.slice/user-1000.slice/memory.max",
		"/sys/fs/cgroup/user.slice/memory.max",
	}, *asked)
	require.Equal(t, int64(1<<30), memoryBudgetFrom(meminfo, limits...))

	// cgroup v1 (the memory controller beside others), unlimited at the
	// root, 3 GiB on the process's group.
	read, _ = files(map[string]string{
		"/sys/fs/cgroup/memory/memory.limit_in_bytes":            "9223372036854771712\n",
		"/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": "3221225472\n",
	})
	self := "12:cpu,cpuacct:/docker/abc\n11:memory:/docker/abc\n1:name=systemd:/docker/abc\n"
	require.Equal(t, int64(3<<29), memoryBudgetFrom(meminfo, cgroupLimits(self, read)...))
	// The same group as a container sees it: its limit at the root.
	read, _ = files(map[string]string{"/sys/fs/cgroup/memory/memory.limit_in_bytes": "3221225472\n"})
	require.Equal(t, int64(3<<29), memoryBudgetFrom(meminfo, cgroupLimits(self, read)...))
	// A v2 container: its own limit at /sys/fs/cgroup.
	read, _ = files(map[string]string{"/sys/fs/cgroup/memory.max": "4294967296\n"})
	require.Equal(t, int64(2<<30), memoryBudgetFrom(meminfo, cgroupLimits("0::/\n", read)...))
	// No limit anywhere, and v1's unlimited without /proc/meminfo: the
	// defaults.
	read, _ = files(map[string]string{"/sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n"})
	require.Equal(t, int64(8<<30), memoryBudgetFrom(meminfo, cgroupLimits(self, read)...))
	require.Equal(t, int64(8<<30), memoryBudgetFrom("", cgroupLimits(self, read)...))
	// A path with .. stays under the hierarchy.
	read, asked = files(nil)
	cgroupLimits("0::/../../etc\n", read)
	require.Equal(t, "/sys/fs/cgroup/etc/memory.max", (*asked)[2])
}
