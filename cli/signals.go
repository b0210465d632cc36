package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
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

// stopOnSignal returns a context that the first stop signal cancels, so the
// search ends at its next batch and the partial report is printed. A second
// signal means the user does not want to wait for it: the process exits at
// once with ExitIncomplete. release undoes the signal handling.
func stopOnSignal(stderr io.Writer) (ctx context.Context, release func()) {
	return stopOnSignalExit(stderr, os.Exit)
}

// stopOnSignalExit is stopOnSignal with the exit function given, for tests.
func stopOnSignalExit(stderr io.Writer, exit func(int)) (ctx context.Context, release func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, stopSignals...)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-sigs:
			cancel(fmt.Errorf("%s", signalName(sig)))
		case <-done:
			return
		}
		select {
		case sig := <-sigs:
			fmt.Fprintf(stderr, "mcheck: %s again: exiting at once, without a report\n", signalName(sig))
			exit(ExitIncomplete)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}
