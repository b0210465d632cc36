package explore

// InReverse is opt for a search that, with one worker, runs each phase's
// chunks from the last to the first.
func InReverse(opt Options) Options {
	opt.test.reverse = true
	return opt
}

// SpillEverything is opt for a search that moves its frontier and parent
// links to files at once.
func SpillEverything(opt Options) Options {
	opt.test.spillAll = true
	return opt
}

// ClaimPath is set (one of the engine's) as a VisitedSet whose PutBlock
// goes the way of a search's batch: the block cut into chunks of 64
// successors, claimed (claim), numbered in chunk order, given room
// (place) and stored (storeChunk). With lazy, the successors are looked
// up first and only the new ones claimed, as lazy expansion does (tables
// only). So the shared suite (TestVisitedSets) runs against the claims
// too.
func ClaimPath(set VisitedSet, lazy bool) VisitedSet {
	v := set.(visitedPart)
	s := &search{visited: v, team: team{workers: make([]worker, 1)}}
	if lazy {
		s.encoded = &encoded{}
	}
	return &claimPath{visitedPart: v, s: s, lazy: lazy}
}

type claimPath struct {
	visitedPart
	s    *search
	lazy bool
}

func (c *claimPath) PutBlock(fps []uint64, encs [][]byte, next uint32, added []bool) int {
	const per = 64
	s := c.s
	s.chunks = make([]chunk, (len(fps)+per-1)/per)
	type at struct{ c, j int }
	where := make([]at, len(fps))
	var looked []probe
	if c.lazy {
		// Looked up by fingerprint as lazy expansion does (index not read).
		looked = make([]probe, len(fps))
		index := make([]bool, len(fps))
		c.prefetchBlock(fps, index)
		c.lookupBlock(fps, index, looked)
	}
	for i, fp := range fps {
		c0 := i / per
		ch := &s.chunks[c0]
		ch.id = c0
		r := succRec{fp: fp}
		if c.lazy {
			if looked[i].old {
				where[i] = at{-1, -1}
				continue
			}
			r.tslot, r.outcome = looked[i].slot, recLost
		}
		off := len(ch.buf)
		ch.buf = append(ch.buf, encAt(encs, i)...)
		r.off, r.end = uint32(off), uint32(len(ch.buf))
		where[i] = at{c0, len(ch.recs)}
		ch.recs = append(ch.recs, r)
	}
	if !c.claim(s, s.chunks, len(fps)) {
		panic("two distinct states of the block share a fingerprint")
	}
	n := next
	for k := range s.chunks {
		s.chunks[k].firstIdx = n
		n += uint32(s.chunks[k].winners)
	}
	c.place(s.chunks, next, n)
	for k := range s.chunks {
		c.storeChunk(s, &s.chunks[k])
	}
	for i, w := range where {
		added[i] = w.c >= 0 && s.chunks[w.c].recs[w.j].outcome == recWon
	}
	return int(n - next)
}
