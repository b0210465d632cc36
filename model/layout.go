package model

import (
	"fmt"
	"slices"
)

// MaxPermN is the largest N for Config.Perm: 8! = 40,320 initial states.
const MaxPermN = 8

// layout is one arrangement of IDs on the ring and what follows from it:
// who may initiate and who starts crashed. Without Config.Perm a kernel
// has one; with it, one per permutation of 1..N, and the state records
// which (world.lay).
type layout struct {
	ids      []int
	byID     []int  // positions in ascending ID order
	initMask uint64 // positions allowed to initiate/detect/suspect
	down     uint64 // positions crashed in the initial state
}

func newLayout(cfg *Config, ids []int) layout {
	l := layout{ids: ids, byID: make([]int, len(ids))}
	pos := func(id int) uint64 {
		var set uint64
		for p, x := range ids {
			if x == id {
				set |= 1 << p
			}
		}
		return set
	}
	for p := range l.byID {
		l.byID[p] = p
	}
	slices.SortStableFunc(l.byID, func(a, b int) int { return ids[a] - ids[b] })
	if cfg.Initiators == nil {
		l.initMask = 1<<len(ids) - 1
	}
	for _, id := range cfg.Initiators {
		l.initMask |= pos(id)
	}
	for _, id := range cfg.Down {
		l.down |= pos(id)
	}
	return l
}

// layouts are the arrangements of cfg: its IDs, or with Perm every
// permutation of 1..N in lexicographic order.
func layouts(cfg *Config) ([]layout, error) {
	if !cfg.Perm {
		return []layout{newLayout(cfg, cfg.IDs)}, nil
	}
	if cfg.N > MaxPermN {
		return nil, fmt.Errorf("every arrangement of %d IDs is %d initial states: use at most %d processes with perm", cfg.N, factorial(cfg.N), MaxPermN)
	}
	var out []layout
	ids := make([]int, cfg.N)
	for p := range ids {
		ids[p] = p + 1
	}
	for {
		out = append(out, newLayout(cfg, slices.Clone(ids)))
		if !nextPermutation(ids) {
			return out, nil
		}
	}
}

func factorial(n int) int {
	f := 1
	for i := 2; i <= n; i++ {
		f *= i
	}
	return f
}

// nextPermutation steps xs to the next permutation in lexicographic order,
// or reports that xs was the last.
func nextPermutation(xs []int) bool {
	i := len(xs) - 2
	for i >= 0 && xs[i] >= xs[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(xs) - 1
	for xs[j] <= xs[i] {
		j--
	}
	xs[i], xs[j] = xs[j], xs[i]
	slices.Reverse(xs[i+1:])
	return true
}

// name is how people call position p (ProcName).
func (l *layout) name(p int) string { return procLabel(l.ids[p], l.alias(p)) }

// alias is the name of position p when another process has the same ID
// (--anonymous): "p1@2", so that names stay distinct; "" otherwise.
func (l *layout) alias(p int) string { return PosAlias(l.ids, p) }

// aliveID reports whether some live process has the ID (several may carry
// it with --anonymous).
func (l *layout) aliveID(alive uint64, id int) bool {
	for p, x := range l.ids {
		if x == id && alive&(1<<p) != 0 {
			return true
		}
	}
	return false
}

func (l *layout) posOf(id int) int { return slices.Index(l.ids, id) }
