package model

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MaxN is the largest number of processes: channel indices fit one byte and
// alive flags one word. Beyond it no state space here is explorable anyway.
const MaxN = 16

// Detector is the failure detector.
type Detector uint8

const (
	Perfect Detector = iota
	Unreliable
	// Incomplete may never report the leader's crash: the perfect
	// detector's steps, but an initiate/detect while elected names a
	// crashed process is not fair.
	Incomplete
)

var detectorNames = [...]string{Perfect: "perfect", Unreliable: "unreliable", Incomplete: "incomplete"}

func (d Detector) String() string { return detectorNames[d] }

// ParseDetector reads "perfect", "incomplete" or "unreliable".
func ParseDetector(s string) (Detector, error) {
	for d, name := range detectorNames {
		if s == name {
			return Detector(d), nil
		}
	}
	return 0, fmt.Errorf("unknown detector %q: use perfect, incomplete or unreliable", s)
}

// Config is the fault model and set-up of semantics.md section 1.
type Config struct {
	N             int
	IDs           []int // ids[p]; nil means p+1
	MaxCrashes    int
	MaxRestarts   int
	Detector      Detector
	Initiators    []int // IDs allowed to initiate/detect/suspect; nil means all
	Down          []int // IDs crashed in the initial state
	InitialLeader bool
	MaxQueue      int // 0 means the default 2N
	// Anonymous allows duplicate IDs; an ID in Initiators or Down then
	// names every process that carries it.
	Anonymous bool
	// Perm explores every arrangement of the IDs 1..N on the ring, as
	// separate initial states of one search (IDs must be nil or 1..N).
	Perm bool
}

// WithDefaults fills IDs and MaxQueue.
func (c Config) WithDefaults() Config {
	if c.IDs == nil && c.N > 0 {
		c.IDs = make([]int, c.N)
		for p := range c.IDs {
			c.IDs[p] = p + 1
		}
	}
	if c.MaxQueue == 0 {
		c.MaxQueue = 2 * c.N
	}
	return c
}

// Validate reports the first thing wrong with c, in words a user can act on.
func (c Config) Validate() error {
	if c.N < 2 || c.N > MaxN {
		return fmt.Errorf("--n %d is out of range: use 2 to %d processes", c.N, MaxN)
	}
	if len(c.IDs) != c.N {
		return fmt.Errorf("--ids has %d IDs but --n is %d: give exactly one ID per process", len(c.IDs), c.N)
	}
	seen := map[int]bool{}
	for _, id := range c.IDs {
		if id <= 0 {
			return fmt.Errorf("--ids: ID %d is not positive: IDs are positive integers", id)
		}
		if id > 1<<20 {
			return fmt.Errorf("--ids: ID %d is too large: use IDs up to %d", id, 1<<20)
		}
		if seen[id] && !c.Anonymous {
			return fmt.Errorf("--ids: ID %d appears twice: IDs must be unique (or give --anonymous)", id)
		}
		seen[id] = true
	}
	for _, list := range []struct {
		flag string
		ids  []int
	}{{"--initiators", c.Initiators}, {"--down", c.Down}} {
		for _, id := range list.ids {
			if !seen[id] {
				return fmt.Errorf("%s: %d is not the ID of a process (the IDs are %s)", list.flag, id, strings.Trim(strings.Join(strings.Fields(fmt.Sprint(c.IDs)), ","), "[]"))
			}
		}
	}
	if c.Perm && c.Anonymous {
		return errors.New("--ids perm arranges the distinct IDs 1..N: not with --anonymous")
	}
	if len(c.Down) >= c.N {
		return errors.New("--down names every process: at least one must start live")
	}
	if c.MaxCrashes < 0 || c.MaxRestarts < 0 || c.MaxQueue < 0 {
		return errors.New("--crashes, --restarts and --max-queue must not be negative")
	}
	if c.MaxQueue > 255 {
		return fmt.Errorf("--max-queue %d is too large: use at most 255 messages per channel", c.MaxQueue)
	}
	if c.MaxCrashes > 255 || c.MaxRestarts > 255 {
		return errors.New("--crashes and --restarts must be at most 255")
	}
	return nil
}

// PosAlias is the name of position p when another process has the same ID
// (--anonymous): ID@position, so that names stay distinct; "" when its ID
// is its own and ProcName(ID) names it.
func PosAlias(ids []int, p int) string {
	for q, id := range ids {
		if q != p && id == ids[p] {
			return ProcName(ids[p]) + "@" + strconv.Itoa(p)
		}
	}
	return ""
}

// PosName is how people call position p: PosAlias, or ProcName of its ID.
func PosName(ids []int, p int) string { return procLabel(ids[p], PosAlias(ids, p)) }
