package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcheck/mcheck/internal/flagval"
	"github.com/mcheck/mcheck/internal/modelopt"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
	"github.com/mcheck/mcheck/webui"
)

const exploreUsage = "mcheck explore [--addr HOST:PORT] [model flags] | mcheck explore [--addr HOST:PORT] FILE"

// exploreHelp is appended to --help.
const exploreHelp = `
Explore by hand in the browser (a local web server; Ctrl-C stops it):
  ` + exploreUsage + `
  --addr HOST:PORT      where to listen (default 127.0.0.1:7070; :0 picks a free port)
  FILE                  a trace file, opened at its last step
  The page's URL holds the configuration and the path, so a link shows the
  same state; --max-states, --memory, --workers and --time-limit (default
  10m) bound each check of its Check button.
`

// modelFlags are the flags of a configuration: those an explorer URL may
// hold, besides the page's own parameters.
var modelFlags = append([]string{"algo"}, modelopt.Flags()...)

// exploreOnly are the other flags explore takes.
var exploreOnly = []string{"addr", "max-states", "memory", "workers", "quiet", "time-limit"}

// exploreMain is `mcheck explore`.
func exploreMain(args []string, reg *specs.Registry, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return serveExplorer(ctx, args, reg, stdout, stderr)
}

// serveExplorer serves until ctx ends.
func serveExplorer(ctx context.Context, args []string, reg *specs.Registry, stdout, stderr io.Writer) int {
	var o options
	fs := newFlagSet(&o)
	addr := flagval.String(fs, "addr", "127.0.0.1:7070")
	files, err := parseExplore(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, exploreHelp)
		return ExitHolds
	}
	if err == nil {
		err = o.exploreRefuses(fs)
	}
	var start webui.Model
	var file *trace.File
	if err == nil {
		start, file, err = exploreStart(fs, &o, reg, files)
	}
	if err != nil {
		return badInput(stderr, err)
	}
	if o.memory == 0 {
		o.memory = defaultMemoryBudget()
	}
	srv, err := newExplorer(reg, start, file, strings.Join(files, ""), loopback(*addr),
		webui.Limits{MaxStates: o.maxStates, MemoryBudget: o.memory, Workers: o.workers, CheckTime: o.timeLimit, Name: flagOf})
	if err != nil {
		return badInput(stderr, fmt.Errorf("explore: %s: %v", strings.Join(files, " "), err)) // only a trace file can fail here
	}
	defer srv.Close()
	return serveUntilDone(ctx, srv, *addr, stdout, stderr)
}

// parseExplore reads explore's flags, which may come after the trace file
// too, and returns the files named.
func parseExplore(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := flagval.Parse(fs, args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, fmt.Errorf("explore: %w (usage: %s)", err, exploreUsage)
		}
		if fs.NArg() == 0 {
			return files, nil
		}
		files, args = append(files, fs.Arg(0)), fs.Args()[1:]
	}
}

// exploreRefuses is the first flag given that the explorer cannot take,
// as an error, or nil.
func (o *options) exploreRefuses(fs *flag.FlagSet) error {
	var wrong error
	fs.Visit(func(f *flag.Flag) {
		if !slices.Contains(modelFlags, f.Name) && !slices.Contains(exploreOnly, f.Name) && wrong == nil {
			wrong = fmt.Errorf("explore: --%s does not apply to explore (usage: %s)", f.Name, exploreUsage)
		}
	})
	switch {
	case wrong != nil:
		return wrong
	case o.timeLimit < 0:
		return fmt.Errorf("explore: --time-limit %s is negative: give a duration like 60s or 5m (each check's time; default %s)", o.timeLimit, webui.DefaultCheckTime)
	case o.model.AutoQueue:
		return fmt.Errorf("explore: --max-queue auto deepens the bound of a check, the explorer needs one: give --max-queue K (usage: %s)", exploreUsage)
	case o.model.AutoTimeout:
		return fmt.Errorf("explore: --timeout auto searches the timeouts of a check, the explorer needs one: give --timeout T (usage: %s)", exploreUsage)
	case o.model.AutoParam != "":
		return fmt.Errorf("explore: --param %s=auto searches a parameter over several checks, the explorer needs one value: give --param %s=V (usage: %s)", o.model.AutoParam, o.model.AutoParam, exploreUsage)
	case o.workers < 0:
		return fmt.Errorf("explore: --workers %d is negative: use 1 or more (0: one per CPU)", o.workers)
	}
	if err := o.checkSizes(machineMemory(), 0); err != nil {
		return fmt.Errorf("explore: %w", err)
	}
	return nil
}

// exploreStart is where the explorer starts: the configuration of the
// flags, or a trace file's (which then brings its own).
func exploreStart(fs *flag.FlagSet, o *options, reg *specs.Registry, files []string) (webui.Model, *trace.File, error) {
	switch len(files) {
	case 0:
		m, err := modelOf(fs, o, reg)
		if err == nil && m.Config.Perm {
			// The page says the same of ids=perm in a URL.
			err = errors.New("--ids perm: the explorer walks from one initial state, not from every arrangement: give one, like --ids 1,3,2")
		}
		if err != nil {
			return webui.Model{}, nil, fmt.Errorf("explore: %w", err)
		}
		return m, nil, nil
	case 1:
		var modelGiven []string
		fs.Visit(func(f *flag.Flag) {
			if slices.Contains(modelFlags, f.Name) {
				modelGiven = append(modelGiven, "--"+f.Name)
			}
		})
		if len(modelGiven) > 0 {
			return webui.Model{}, nil, fmt.Errorf("explore: a trace file brings its configuration: drop %s", strings.Join(modelGiven, ", "))
		}
		start, file, err := openTrace(files[0], reg)
		if err != nil {
			return webui.Model{}, nil, fmt.Errorf("explore: %w", err)
		}
		return start, file, nil
	}
	return webui.Model{}, nil, fmt.Errorf("explore: give at most one trace file (usage: %s)", exploreUsage)
}

// serveUntilDone serves the explorer on addr until ctx ends.
func serveUntilDone(ctx context.Context, srv *webui.Server, addr string, stdout, stderr io.Writer) int {
	ln, err := srv.Listen(addr)
	if err != nil {
		return badInput(stderr, fmt.Errorf("explore: --addr %s: %v (--addr 127.0.0.1:0 picks a free port)", addr, err))
	}
	hs := srv.HTTPServer()
	go func() {
		<-ctx.Done()
		srv.Close()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
	}()
	if !loopback(addr) {
		fmt.Fprintf(stderr, "mcheck: explore: --addr %s is reachable from other machines: anyone who can reach it can use the page and start checks\n", addr)
	}
	fmt.Fprintf(stdout, "mcheck explore: open http://%s/?%s (Ctrl-C stops)\n", listeningAt(addr, ln.Addr()), srv.Home())
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "mcheck: explore: %v\n", err)
		return ExitIncomplete
	}
	return ExitHolds
}

// openTrace reads a trace file as replay does (mcheck's format or ITF),
// and its configuration.
func openTrace(path string, reg *specs.Registry) (webui.Model, *trace.File, error) {
	file, err := readTraceFile(path)
	if err != nil {
		return webui.Model{}, nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	start, err := webui.ModelOf(file, reg)
	if err != nil {
		return webui.Model{}, nil, fmt.Errorf("%s: config: %w", path, err)
	}
	return start, file, nil
}

// newExplorer is the explorer's server, opening start, or with file (named
// name) that file's trace at its last step.
func newExplorer(reg *specs.Registry, start webui.Model, file *trace.File, name string, localOnly bool, lim webui.Limits) (*webui.Server, error) {
	parse, query := ExploreModels(reg)
	return webui.New(webui.Options{
		Parse: parse, Query: query, Start: start, Trace: file, TraceName: name, LocalOnly: localOnly, Limits: lim,
	})
}

// modelOf is the configuration of parsed model flags.
func modelOf(fs *flag.FlagSet, o *options, reg *specs.Registry) (webui.Model, error) {
	if o.algo == "" {
		return webui.Model{}, fmt.Errorf("no algorithm: give --algo, one of %s", strings.Join(reg.Names(), ", "))
	}
	spec, err := reg.Lookup(o.algo)
	if err != nil {
		return webui.Model{}, fmt.Errorf("--algo: %w", err)
	}
	if err := o.finish(fs, spec); err != nil {
		return webui.Model{}, err
	}
	return webui.Model{Spec: spec, Config: o.cfg}, nil
}

// listeningAt is the host and port to open: the host as --addr gave it
// (0.0.0.0 stays 0.0.0.0, where the listener would say [::]; none is
// localhost) and the port the listener took (:0 picks one).
func listeningAt(addr string, at net.Addr) string {
	host, _, err := net.SplitHostPort(addr)
	tcp, ok := at.(*net.TCPAddr)
	if err != nil || !ok {
		return at.String()
	}
	if host == "" {
		host = "localhost"
	}
	return net.JoinHostPort(host, strconv.Itoa(tcp.Port))
}

// loopback reports whether addr listens on this machine only.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ExploreModels reads and writes the configuration in an explorer URL as
// the command line's model flags (algo=chang-roberts&n=4&crashes=1).
func ExploreModels(reg *specs.Registry) (parse func(url.Values) (webui.Model, error), query func(webui.Model) url.Values) {
	parse = func(q url.Values) (webui.Model, error) {
		var args []string
		for _, k := range slices.Sorted(maps.Keys(q)) {
			if !slices.Contains(modelFlags, k) {
				return webui.Model{}, fmt.Errorf("unknown parameter %q: a configuration has %s", k, strings.Join(modelFlags, ", "))
			}
			for _, v := range q[k] {
				args = append(args, "--"+k+"="+v)
			}
		}
		var o options
		fs := newFlagSet(&o)
		if err := flagval.Parse(fs, args); err != nil {
			return webui.Model{}, errors.New(oneLine(err.Error()))
		}
		// As on the command line: auto names a search over models, and
		// the page walks one.
		if o.model.AutoQueue {
			return webui.Model{}, errors.New("max-queue=auto deepens the channel bound over several checks, and the page walks one model: give a bound, like max-queue=2")
		}
		if o.model.AutoTimeout {
			return webui.Model{}, errors.New("timeout=auto searches the timeouts over several checks, and the page walks one model: give a timeout, like timeout=3")
		}
		if a := o.model.AutoParam; a != "" {
			return webui.Model{}, fmt.Errorf("param=%s=auto searches a parameter over several checks, and the page walks one model: give a value, like param=%s=3", a, a)
		}
		return modelOf(fs, &o, reg)
	}
	query = func(m webui.Model) url.Values {
		return modelopt.Query(m.Spec.Name, m.Config, m.Spec.InitialLeader)
	}
	return parse, query
}
