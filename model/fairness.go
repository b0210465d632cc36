package model

import "fmt"

// The weak-fairness classes of a kernel (docs/semantics.md section 2.3) come in
// families, one class per member, numbered family after family in the
// order below. The expander names a step's class by its family and member
// (Kernel.class), and FairClass names a class by the same table: neither
// computes the other's offsets. Section 6's tick and gst are a family of
// one member each in the timed modes (none in the asynchronous one); they
// come last, so the other classes keep their numbers.
type family uint8

const (
	famDeliver   family = iota // deliver(p→q); member: the channel p*N+q
	famInitiate                // initiate/detect(p); member: p
	famTimer                   // a justified timeout (timed: expired); member: p*len(timers)+t
	famTick                    // tick (timed modes); one member
	famGST                     // gst (partial timing); one member
	famHeartbeat               // heartbeat q→p (heartbeat detector); member: q*N+p
	numFamilies
)

// fairFamily is one family: its number of members and how people call a
// member.
type fairFamily struct {
	size int
	name func(member int) string
}

// fairness is a kernel's table of families and each one's first class.
type fairness struct {
	fams [numFamilies]fairFamily
	base [numFamilies]int32
}

func (k *Kernel[L, M]) newFairness() fairness {
	n, nt := k.n, len(k.timers)
	f := fairness{fams: [numFamilies]fairFamily{
		famDeliver:   {n * n, func(m int) string { return "deliver " + k.name(m/n) + "→" + k.name(m%n) }},
		famInitiate:  {n, func(m int) string { return k.initName + " " + k.name(m) }},
		famTimer:     {n * nt, func(m int) string { return k.timers[m%nt].Name + " " + k.name(m/nt) }},
		famTick:      {0, func(int) string { return "tick" }},
		famGST:       {0, func(int) string { return "gst" }},
		famHeartbeat: {0, func(m int) string { return "heartbeat " + k.name(m/n) + "→" + k.name(m%n) }},
	}}
	if k.shape.heartbeat {
		f.fams[famHeartbeat].size = n * n
	}
	if k.shape.timed {
		f.fams[famTick].size = 1
	}
	if k.shape.partial {
		f.fams[famGST].size = 1
	}
	var next int32
	for i := range f.fams {
		f.base[i] = next
		next += int32(f.fams[i].size)
	}
	return f
}

// class is the class of member m of family f.
func (f *fairness) class(fam family, m int) int32 { return f.base[fam] + int32(m) }

// name names class c, NoFairness included.
func (f *fairness) name(c int32) string {
	if c < 0 {
		return "unfair"
	}
	for i := range f.fams {
		if m := c - f.base[i]; m < int32(f.fams[i].size) {
			return f.fams[i].name(int(m))
		}
	}
	return fmt.Sprintf("class %d", c)
}

// The classes of the kernel's fair steps.
func (k *Kernel[L, M]) classDeliver(from, to int) int32 {
	return k.fair.class(famDeliver, from*k.n+to)
}
func (k *Kernel[L, M]) classInitiate(p int) int32 { return k.fair.class(famInitiate, p) }
func (k *Kernel[L, M]) classTimer(p, t int) int32 {
	return k.fair.class(famTimer, p*len(k.timers)+t)
}

// TickClass implements ts.Clocked: in a timed mode, tick is one family of
// one member (section 6), the class of every tick step and of no other.
func (k *Kernel[L, M]) TickClass() (int32, bool) {
	return k.fair.class(famTick, 0), k.shape.timed
}

// FairClass implements System.
func (k *Kernel[L, M]) FairClass(c int32) string { return k.fair.name(c) }
