package model

// Procs summarises a global state the way the standard properties read it:
// per process whether it is alive, its ID and its elected value. Tests and
// tools that compare searches use it (Viewer); properties read a View.
type Procs struct {
	N       int
	Alive   uint64 // bit p set: position p is live
	ID      [MaxN]int
	Elected [MaxN]int // 0 means ⊥
}

// IsAlive reports whether position p is live.
func (v *Procs) IsAlive(p int) bool { return v.Alive&(1<<p) != 0 }

// AliveID reports whether some live process has ID id (several may carry
// it with --anonymous).
func (v *Procs) AliveID(id int) bool {
	for p := 0; p < v.N; p++ {
		if v.ID[p] == id && v.IsAlive(p) {
			return true
		}
	}
	return false
}
