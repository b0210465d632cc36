package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// stopSignals are the signals that stop a check with its partial report:
// Ctrl-C, and what timeout, CI cancellation and Kubernetes send (SIGTERM)
// or a closed terminal (SIGHUP).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// signalName is how the report names a stop signal.
func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT (Ctrl-C)"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return sig.String()
}

// sameStopWindow is how soon after the first stop signal another one is
// the same request: GNU timeout signals its child and then the child's
// process group, so the child sees its SIGTERM twice at once, and a
// closed terminal's SIGHUP may come with the shell's.
const sameStopWindow = time.Second

// stopOnSignal returns a context that the first stop signal cancels, so the
// search ends at its next batch and the partial report is printed. Another
// signal within sameStopWindow of the first is the same request; one after
// it means the user does not want to wait for the report: the process exits
// at once with ExitIncomplete. release undoes the signal handling.
func stopOnSignal(stderr io.Writer) (ctx context.Context, release func()) {
	return stopOnSignalExit(stderr, os.Exit, time.Now)
}

// stopOnSignalExit is stopOnSignal with the exit function and the clock
// given, for tests.
func stopOnSignalExit(stderr io.Writer, exit func(int), now func() time.Time) (ctx context.Context, release func()) {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, stopSignals...)
	ctx, stop := watchStopSignals(sigs, stderr, exit, now)
	return ctx, func() {
		signal.Stop(sigs)
		stop()
	}
}

// watchStopSignals acts on the stop signals that sigs delivers (see
// stopOnSignal), reading now once per signal. stop ends the watch and
// cancels the context.
func watchStopSignals(sigs <-chan os.Signal, stderr io.Writer, exit func(int), now func() time.Time) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan struct{})
	go func() {
		var first time.Time
		select {
		case sig := <-sigs:
			first = now()
			cancel(fmt.Errorf("%s", signalName(sig)))
		case <-done:
			return
		}
		for {
			select {
			case sig := <-sigs:
				if now().Sub(first) < sameStopWindow {
					continue // the same request, sent twice (timeout, a process group)
				}
				fmt.Fprintf(stderr, "mcheck: %s again: exiting at once, without a report\n", signalName(sig))
				exit(ExitIncomplete)
				return
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		close(done)
		cancel(nil)
	}
}
