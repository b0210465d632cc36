package cli

import (
	"errors"
	"fmt"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
)

// checkDeepen applies the rules of --max-queue auto, --timeout auto and
// --time-limit.
func (o *options) checkDeepen() error {
	switch {
	case o.timeLimit < 0:
		return fmt.Errorf("--time-limit %s is negative: give a duration like 60s or 5m", o.timeLimit)
	case o.model.AutoQueue && o.complexity:
		return errors.New("--complexity with --max-queue auto: measures need one fixed bound, give --max-queue K")
	case o.model.AutoQueue && o.bitstate > 0:
		return errors.New("--bitstate with --max-queue auto: a bitstate search proves no bound, give --max-queue K")
	case o.model.AutoTimeout && o.model.AutoQueue:
		return errors.New("--timeout auto with --max-queue auto: the timeout search needs one fixed bound, give --max-queue K")
	case o.model.AutoTimeout && o.complexity:
		return errors.New("--complexity with --timeout auto: measures need one fixed T, give --timeout T")
	case o.model.AutoTimeout && o.bitstate > 0:
		return errors.New("--bitstate with --timeout auto: a bitstate search proves no T holds, give --timeout T")
	}
	return nil
}

// checkAutoParam applies the rules of --param NAME=auto, as checkDeepen
// those of --timeout auto.
func (o *options) checkAutoParam() error {
	a := o.model.AutoParam
	switch {
	case o.model.AutoTimeout:
		return fmt.Errorf("--param %s=auto with --timeout auto: one value is searched at a time, give the other", a)
	case o.model.AutoQueue:
		return fmt.Errorf("--param %s=auto with --max-queue auto: the search needs one fixed bound, give --max-queue K", a)
	case o.complexity:
		return fmt.Errorf("--complexity with --param %s=auto: measures need one fixed value, give --param %s=V", a, a)
	case o.bitstate > 0:
		return fmt.Errorf("--bitstate with --param %s=auto: a bitstate search proves no value holds, give --param %s=V", a, a)
	case o.sim.on:
		return fmt.Errorf("--simulate with --param %s=auto: a simulation proves no value holds, give --param %s=V", a, a)
	}
	return nil
}

// runCheck runs the check of o: one search, or with --max-queue auto one
// per bound, or with --timeout auto one per timeout; --time-limit bounds
// the time of all of it.
// searchName names a search of the sweep o asks for in progress lines.
func (o *options) searchName(c model.Config) string {
	if o.model.AutoTimeout {
		return fmt.Sprintf("T %d, T2 %d", c.Timeout, c.TimeoutCoord)
	}
	if a := o.model.AutoParam; a != "" {
		return fmt.Sprintf("%s %d", a, c.Params[a])
	}
	return fmt.Sprintf("bound %d", c.MaxQueue)
}

func runCheck(req check.Request, o *options) (*check.Report, error) {
	if o.model.AutoTimeout {
		return check.SearchTimeouts(req, o.timeLimit)
	}
	if o.model.AutoParam != "" {
		return check.SearchParam(req, o.autoParam, o.timeLimit)
	}
	if o.model.AutoQueue {
		return check.Deepen(req, o.timeLimit)
	}
	if _, sim := req.Strategy.(*check.Simulate); o.timeLimit > 0 && !sim { // a simulation's is its budget (check.Simulate)
		ctx, cancel := check.WithTimeLimit(req.Context, o.timeLimit)
		defer cancel()
		req.Context = ctx
	}
	return check.Run(req)
}
