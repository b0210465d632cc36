package explore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"
	"unsafe"

	"github.com/mcheck/mcheck/internal/apart"
	"github.com/mcheck/mcheck/ts"
)

// The search goes level by level (BFS), and each level in batches of
// chunks of consecutive frontier states. A batch runs in phases, each in
// parallel over its chunks, with a barrier between them:
//
//	expand   every state of the chunk (with reduction, only the steps of a
//	         stubborn set); keep the successors in order. Lazily (lazy.go),
//	         a successor is looked up here, by fingerprint, and only a new
//	         one is encoded
//	claim    the visited set's (visitedPart.claim), a chunk per call: the
//	         table looks each successor up (states of earlier batches; it
//	         does not change in this phase), unless expansion did, and
//	         claims a new one in the batch's claims table at its
//	         sequential position (chunk, offset): the smallest position
//	         wins. The bit array claims chunk after chunk on one worker
//	count    the winners: the first occurrence of each new state
//	write    winners get consecutive indices in sequential order (from
//	         prefix sums over chunks), a table slot (storeChunk), parent links and
//	         frontier bytes; with the liveness graph, every successor's
//	         index is written as the chunk's edges (resolveChunk)
//
// So state indices, counts, first violations and traces are exactly those of
// a one-goroutine search, for any number of workers.
//
// The phases run on a crew (crew.go) that stays for the whole search. What
// would leave workers waiting between phases runs in a phase instead: the
// table grows in parts on the crew, and the expand phase also writes the
// previous batch's files and maps the graph's blocks for this one.
const (
	// Frontier states per chunk: 128 rather than 256 halves the batch's
	// records and sets for the same speed (BENCHMARKS.md).
	chunkStates = 128
	batchChunks = 64 // chunks per batch (at most 64, see claimPos)
)

type worker struct {
	// x expands; alt is the other half of the lazy pipeline (expandLazy):
	// the successors of one state wait in one while the next state is
	// expanded in the other.
	x, alt *expansion
	read   []byte // a spilled frontier's chunk
	// Scratch of the lazy path, per successor of a state.
	probes []probe
	reach  []uint8   // per new successor: reachBorrows, reachEncodes or reachDropped
	_      apart.Pad // workers sit side by side in search.workers
}

// bytes is what the worker's buffers hold (its expanders' own memory is
// search.workerBytes).
func (w *worker) bytes() int64 {
	b := int64(cap(w.read)) + int64(cap(w.probes))*int64(unsafe.Sizeof(probe{})) + int64(cap(w.reach))
	for _, x := range []*expansion{w.x, w.alt} {
		bt := &x.batch
		b += int64(cap(bt.Succs))*int64(unsafe.Sizeof(ts.Succ{})) + int64(cap(bt.Tail())) + int64(cap(bt.Group)) + int64(cap(bt.Stubborn))*8 + int64(cap(x.pick))*4 + int64(cap(x.fps))*8 + int64(cap(x.keep))
	}
	return b
}

// expansion is an expander and the successors of the state it expanded
// last.
type expansion struct {
	exp ts.Expander
	// lazy, when set, expands without encodings: successors are looked up
	// by fingerprint and only new ones are encoded (ts.LazyExpander).
	lazy  ts.LazyExpander
	red   ts.Reducer // with Options.Reduce, if the system has one
	batch ts.Batch
	pick  []int32 // the successors to follow, by index into batch
	src   uint32  // the state expanded
	// With lazy expansion, the picked successors' fingerprints and whether
	// the graph keeps each one's edge: the block looked up in the visited
	// set (prefetchBlock, lookupBlock).
	fps  []uint64
	keep []bool
}

// Per-successor outcome of claiming.
const (
	recOld  uint8 = iota // an earlier state
	recWon               // the first occurrence of a new state
	recLost              // a new state first reached by an earlier successor
)

// succRec is a successor that may be a new state (with lazy expansion, one
// the table did not hold when it was looked up).
type succRec struct {
	fp uint64
	// slot is where the claim is in the claims table while the batch
	// claims; once counted, a loser's is the position (claimPos) of the
	// record that won its claim.
	slot     uint64
	tslot    uint64 // in the main table: where the lookup ended
	props    uint64
	action   ts.Action
	src      uint32 // index of the expanded state
	off, end uint32 // encoding in chunk.buf
	idx      uint32 // recOld: the state's index; recWon: its rank among the chunk's winners (indexOf)
	outcome  uint8
	borrowed bool // its encoding is another successor's (lazy expansion; see encodingOf)
}

// edgeRec is an edge of the liveness graph as expansion leaves it: to is
// the target's index when the table held it already, else newEdge|its
// record in recs, resolved once the batch has numbered its new states.
// Eight bytes: most edges of a liveness search go to old states, and a
// successor record for each cost a search with the graph seconds.
type edgeRec struct {
	to   uint32
	fair int32
}

// newEdge marks an edgeRec's to as a record (indices stay below maxStates).
const newEdge = 1 << 31

type chunk struct {
	id          int // its place in the batch
	lo, hi      int // frontier positions
	recs        []succRec
	buf         []byte
	edges       []edgeRec  // with the graph: every successor followed, in order
	sends       []ts.Sends // ... and the messages each step sent, for the measures
	fanout      []uint32   // successors per expanded state, for the graph
	good        []uint64   // the kept predicates that hold in the expanded state (goals: with Quiet), for the graph
	cut         []bool     // the bound discarded a fair successor of it, for the graph
	quiet       []bool     // it is quiescent, for the measures
	stuckCut    []bool     // ... of the first stuck state, per goal
	transitions int64
	discarded   int64
	provisoFull int64
	reduced     int64   // states that followed a stubborn set
	stuck       []int64 // per goal, then leads-to: frontier position of the first stuck state outside it, or -1
	outside     uint64  // the goals false in some state it expanded
	premised    uint64  // the leads-to (by To) whose From held in some state it expanded
	winners     int
	winBytes    int
	firstIdx    uint32 // index of the chunk's first winner
	firstByte   int64  // frontier offset of its bytes
	out         []byte // its new states, back to back, for the frontier
	err         error  // reading or writing the frontier failed
	firstEdge   int    // graph edge index of the chunk's first edge
	encBytes    int    // room its winners' encodings take (exact search)
	encAt       uint64 // where they go in the encoding store
	collided    bool   // two distinct new states share a fingerprint (exact search)
	bad         [ts.MaxPredicates]int64
	badStep     [ts.MaxPredicates]stepAt // the chunk's first step violating each step predicate
}

// addEdge records, for graph g, the step y as an edge to to (see edgeRec).
func (ch *chunk) addEdge(g *graph, to uint32, y *ts.Succ) {
	ch.edges = append(ch.edges, edgeRec{to, y.Fair})
	if g.measured {
		ch.sends = append(ch.sends, y.Sent)
	}
}

// noteFanout records, for graph g (nil: none), how many edges the state
// just expanded has: those added since edge e0.
func (ch *chunk) noteFanout(g *graph, e0 int) {
	if g != nil {
		ch.fanout = append(ch.fanout, uint32(len(ch.edges)-e0))
	}
}

// stepAt is a step: the state it leaves and its action.
type stepAt struct {
	src    uint32
	action ts.Action
}

func (ch *chunk) recordSteps(bad uint64, src uint32, a ts.Action) {
	for p := 0; bad != 0; p, bad = p+1, bad>>1 {
		if bad&1 != 0 && ch.badStep[p].src == noParent {
			ch.badStep[p] = stepAt{src, a}
		}
	}
}

func (s *search) bfs() {
	s.team.start()
	defer s.team.stop()
	s.exp.Initial(&s.batch)
	s.initials = int64(len(s.batch.Succs))
	added := s.block.put(s.visited, len(s.batch.Succs), func(j int) uint64 { return s.batch.Succs[j].FP }, s.batch.State, uint32(s.front.links.n))
	for j := range s.batch.Succs {
		succ := &s.batch.Succs[j]
		if added[j] {
			idx := uint32(s.front.links.n)
			s.front.links.grow(int(idx) + 1)
			s.front.links.set(idx, noParent, succ.Action)
			if err := s.front.next.push(s.batch.State(j)); err != nil {
				s.halt(StopIO, err.Error())
				return
			}
			s.haltFor(s.found.checkState(succ.Props, idx))
		}
	}
	s.roots = s.front.links.n
	lastProgress := s.started
	s.front.cur, s.front.next = s.front.next, s.front.cur
	for depth := 0; s.front.cur.count() > 0 && !s.stop; depth++ {
		s.stats.Depth = depth
		s.front.next.reset(uint32(s.front.links.n))
		for lo := 0; lo < s.front.cur.count() && !s.stop; lo += chunkStates * batchChunks {
			if err := s.opt.Context.Err(); err != nil {
				s.halt(StopInterrupted, "interrupted: "+context.Cause(s.opt.Context).Error())
				return
			}
			if !s.withinBudget() {
				return
			}
			if s.opt.Progress != nil && time.Since(lastProgress) >= s.opt.ProgressEvery {
				lastProgress = time.Now()
				s.opt.Progress(Progress{
					States: int64(s.front.links.n), Transitions: s.stats.Transitions, Depth: depth,
					Queue: s.front.cur.count() - lo + s.front.next.count(), Elapsed: time.Since(s.started), MemBytes: s.memBytes(),
				})
			}
			s.runBatch(lo, min(lo+chunkStates*batchChunks, s.front.cur.count()))
		}
		// The next level is read from its file from the next batch on.
		if s.front.flushPending {
			s.front.flushPending = false
			if err := s.front.flush(); err != nil {
				s.halt(StopIO, err.Error())
				return
			}
		}
		s.front.cur, s.front.next = s.front.next, s.front.cur
	}
	if !s.stop {
		s.stats.Complete = true
	}
}

// runBatch takes the states lo..hi of the current level through the
// phases of a batch: expand them (in chunks, on all workers), total what
// the chunks found, claim the new states, give them their places, write
// them (and resolve the graph's edges), and record what they violate.
func (s *search) runBatch(lo, hi int) {
	chunks, ok := s.loadBatch(lo, hi)
	if !ok || !s.expandBatch(chunks, hi) {
		return
	}
	succs, edges := s.tallyBatch(chunks)
	defer func() { s.maxSuccs, s.maxEdges = max(s.maxSuccs, succs), max(s.maxEdges, edges) }()
	if s.stop || !s.claimBatch(chunks, succs) {
		return
	}
	capped := s.placeBatch(chunks)
	if capped {
		// The graph is of no use to an incomplete search.
		s.graph = nil
		s.visited.dropIndex()
	}
	base := s.growGraph(lo, hi, edges)
	if !s.writeBatch(chunks, base) {
		return
	}
	s.finishBatch(chunks)
}

// loadBatch cuts the states lo..hi into chunks and loads them; false when
// the frontier file fails (the search halts).
func (s *search) loadBatch(lo, hi int) ([]chunk, bool) {
	nch := (hi - lo + chunkStates - 1) / chunkStates
	for len(s.chunks) < nch {
		s.chunks = append(s.chunks, chunk{})
	}
	chunks := s.chunks[:nch]
	for c := range chunks {
		chunks[c].id, chunks[c].lo, chunks[c].hi = c, lo+c*chunkStates, min(lo+(c+1)*chunkStates, hi)
	}
	// Expansion sets the armed bits of the batch's states (leadsto.go).
	for k := range s.found.armed {
		s.found.armed[k].fit(uint32(s.front.links.n))
	}
	if s.encoded != nil {
		s.encoded.reset(max(s.maxSuccs, 1<<14))
	}
	if err := s.front.cur.load(lo, hi); err != nil {
		s.halt(StopIO, err.Error())
		return nil, false
	}
	return chunks, true
}

// expandBatch expands the chunks on all workers; false when writing the
// files failed (the search halts).
func (s *search) expandBatch(chunks []chunk, hi int) bool {
	// Beside the expansion, as its first items (they start at once), work
	// that would otherwise run while the other workers wait: the previous
	// batch's new states go to the files, and the graph maps the blocks
	// this batch's edges will take.
	var side []func() error
	if s.front.flushPending {
		s.front.flushPending = false
		side = append(side, s.front.flush)
	}
	if g := s.graph; g != nil {
		end, edges := int(s.front.cur.base)+hi, s.maxEdges
		side = append(side, func() error { g.reserve(end, edges); return nil })
	}
	sideErr := make([]error, len(side))
	s.team.parallel(len(side)+len(chunks), func(w *worker, c int) {
		if c < len(side) {
			sideErr[c] = side[c]()
			return
		}
		s.expandChunk(w, &chunks[c-len(side)])
	})
	if err := errors.Join(sideErr...); err != nil {
		s.halt(StopIO, err.Error())
		return false
	}
	return !s.ioFailed(chunks)
}

// tallyBatch works between the phases: the totals in chunk order (each
// chunk's first edge among them), the first violated step and the first
// stuck state; it returns the batch's successors and edges.
func (s *search) tallyBatch(chunks []chunk) (succs, edges int) {
	for c := range chunks {
		ch := &chunks[c]
		ch.firstEdge = edges
		succs += len(ch.recs)
		edges += len(ch.edges)
		s.stats.Transitions += ch.transitions
		s.stats.Discarded += ch.discarded
		s.stats.OutsideGoal |= ch.outside
		s.stats.PremiseHeld |= ch.premised
		s.stats.ProvisoFull += ch.provisoFull
		s.stats.ReducedStates += ch.reduced
		for p, at := range ch.badStep {
			if at.src != noParent {
				// Chunks are in BFS order: the first is from a shallowest state.
				s.haltFor(s.found.step(p, at))
			}
		}
		for k, at := range ch.stuck {
			if at >= 0 {
				s.haltFor(s.found.stuck(k, s.front.cur.base+uint32(at), ch.stuckCut[k], s.graph != nil))
			}
		}
	}
	return succs, edges
}

// claimBatch decides which of the batch's succs successors are new
// states, and which record of each is kept (the first in BFS order);
// false when two
// new states share a fingerprint in an exact search (the search halts).
func (s *search) claimBatch(chunks []chunk, succs int) bool {
	if !s.visited.claim(s, chunks, succs) {
		// Rare beyond measure (about batch²/2^65 per batch), and then
		// no verdict rests on it: the search stops, incomplete.
		s.halt(StopCollision, "two distinct new states of one batch share a 64-bit fingerprint; the exact search cannot go on")
		return false
	}
	return true
}

// placeBatch gives the new states their indices and their bytes in the
// next level, in chunk order, and makes room for them everywhere they go;
// it reports whether --max-states cut the batch short.
func (s *search) placeBatch(chunks []chunk) (capped bool) {
	next, nbytes := uint32(s.front.links.n), s.front.next.size
	limit := uint32(maxStates)
	if s.opt.MaxStates > 0 && s.opt.MaxStates < maxStates {
		limit = uint32(s.opt.MaxStates)
	}
	for c := range chunks {
		ch := &chunks[c]
		ch.firstIdx, ch.firstByte = next, nbytes
		if next+uint32(ch.winners) > limit {
			// --max-states is a cap: keep the first winners in order only.
			s.keepFirst(ch, int(limit-next))
			capped = true
		}
		next += uint32(ch.winners)
		nbytes += int64(ch.winBytes)
	}
	s.visited.place(chunks, uint32(s.front.links.n), next)
	s.front.links.grow(int(next))
	for k := range s.found.armed {
		s.found.armed[k].fit(next)
	}
	from := s.front.next.size
	s.front.next.reserve(int(next-s.front.next.base), nbytes)
	s.front.next.batch(from, nbytes)
	return capped
}

// growGraph makes the graph's room for the batch's states lo..hi and its
// edges, and returns the graph's index of the batch's first edge (0
// without a graph).
func (s *search) growGraph(lo, hi, edges int) int {
	g := s.graph
	if g == nil {
		return 0
	}
	// One start per expanded state, in state order: the batch's states
	// are the next ones.
	if g.starts.len() != int(s.front.cur.base)+lo {
		panic(fmt.Sprintf("mcheck: internal error: the graph has %d states, the batch starts at state %d", g.starts.len(), int(s.front.cur.base)+lo))
	}
	end := s.front.cur.base + uint32(hi)
	g.starts.grow(int(end))
	for k := range g.good {
		g.good[k].fit(end)
	}
	g.cut.fit(end)
	g.quiet.fit(end)
	g.dst.grow(g.dst.len() + edges)
	g.class.grow(g.class.len() + edges)
	if g.measured {
		g.sent.grow(g.sent.len() + edges)
	}
	return g.dst.len() - edges
}

// writeBatch writes the new states of every chunk, and resolves each
// chunk's edges in the same phase (they need no other chunk's writes, see
// resolveChunk); false when writing failed (the search halts).
func (s *search) writeBatch(chunks []chunk, base int) bool {
	g := s.graph
	s.team.parallel(len(chunks), func(_ *worker, c int) {
		s.visited.storeChunk(s, &chunks[c])
		s.writeChunk(&chunks[c])
		if g != nil {
			s.resolveChunk(&chunks[c], base)
		}
	})
	if s.ioFailed(chunks) {
		return false
	}
	s.front.flushPending = true // with the next batch's expansion, or at the level's end
	return true
}

// finishBatch records the invariants the new states violate, and halts
// the search at its state limits.
func (s *search) finishBatch(chunks []chunk) {
	for c := range chunks {
		for p, idx := range chunks[c].bad {
			if idx >= 0 {
				s.haltFor(s.found.invariant(p, uint32(idx)))
			}
		}
	}
	switch {
	case s.opt.MaxStates > 0 && int64(s.front.links.n) >= s.opt.MaxStates:
		s.halt(StopMaxStates, fmt.Sprintf("%s %d reached", s.opt.named("MaxStates"), s.opt.MaxStates))
	case s.front.links.n >= maxStates:
		s.halt(StopTableFull, fmt.Sprintf("the state table is full at %d states", maxStates))
	}
}

// ioFailed stops the search if a chunk could not read or write the
// frontier file.
func (s *search) ioFailed(chunks []chunk) bool {
	for c := range chunks {
		if err := chunks[c].err; err != nil {
			s.halt(StopIO, err.Error())
			return true
		}
	}
	return false
}

func (s *search) expandChunk(w *worker, ch *chunk) {
	ch.recs, ch.buf, ch.fanout, ch.good, ch.cut, ch.quiet = ch.recs[:0], ch.buf[:0], ch.fanout[:0], ch.good[:0], ch.cut[:0], ch.quiet[:0]
	ch.edges, ch.sends = ch.edges[:0], ch.sends[:0]
	ch.transitions, ch.discarded, ch.err, ch.provisoFull, ch.reduced = 0, 0, nil, 0, 0
	ch.stuck, ch.stuckCut, ch.outside, ch.premised = ch.stuck[:0], ch.stuckCut[:0], 0, 0
	for range s.found.stuckSeen {
		ch.stuck, ch.stuckCut = append(ch.stuck, -1), append(ch.stuckCut, false)
	}
	for p := range ch.badStep {
		ch.badStep[p] = stepAt{src: noParent}
	}
	data, err := s.front.cur.states(ch.lo, ch.hi, &w.read)
	if err != nil {
		ch.err = err
		return
	}
	if w.x.lazy != nil {
		s.expandLazy(w, ch, data)
		return
	}
	x := w.x
	off := 0 // of state i in data
	for i := ch.lo; i < ch.hi; i++ {
		src := s.front.cur.base + uint32(i)
		b := &x.batch
		n := int(s.front.cur.lens[i])
		pick := s.expandState(x, ch, data[off:off+n])
		off += n
		n = len(b.Succs)
		if pick != nil {
			n = len(pick)
		}
		s.noteExpanded(ch, b, i-ch.lo, n, src)
		e0 := len(ch.edges)
		for k := range n {
			j := k
			if pick != nil {
				j = int(pick[k])
			}
			y := &b.Succs[j]
			if bad := s.found.stepMask &^ y.Props; bad != 0 {
				ch.recordSteps(bad, src, y.Action)
			}
			off := len(ch.buf)
			ch.buf = append(ch.buf, b.State(j)...)
			if s.graph.keeps(y) {
				ch.addEdge(s.graph, newEdge|uint32(len(ch.recs)), y)
			}
			ch.recs = append(ch.recs, succRec{
				fp: y.FP, props: y.Props, action: y.Action, src: src,
				off: uint32(off), end: uint32(len(ch.buf)),
			})
		}
		ch.noteFanout(s.graph, e0)
	}
}

// noteExpanded records what the search keeps of expanded state i (its
// position in the chunk, its index v) with n steps followed: counts, the
// first stuck state, the graph's per-state bookkeeping but for its edges
// (noteFanout).
func (s *search) noteExpanded(ch *chunk, b *ts.Batch, i, n int, v uint32) {
	ch.transitions += int64(n)
	ch.discarded += int64(b.Discarded)
	good := b.Props & s.found.keptMask
	if s.found.quietMask != 0 && b.AnyFair() {
		good &^= s.found.quietMask
	}
	ch.outside |= s.found.goalMask &^ good
	if s.found.goalMask&^good != 0 && !b.AnyFair() {
		for k, p := range s.found.goals {
			if ch.stuck[k] < 0 && good&(1<<p) == 0 {
				ch.stuck[k], ch.stuckCut[k] = int64(ch.lo+i), b.DiscardedFair > 0
			}
		}
	}
	if s.found.leads != nil {
		s.noteLeadsTo(ch, b, i, v)
	}
	if s.graph != nil {
		ch.good = append(ch.good, good)
		ch.cut = append(ch.cut, b.DiscardedFair > 0)
		ch.quiet = append(ch.quiet, b.Quiescent())
	}
}

// expandState expands one state into the worker's batch and returns the
// indices of the steps to follow: nil for all of them or, with reduction,
// those of the first stubborn set none of whose steps leads back to a
// state of this BFS level or an earlier one. If every candidate has such a step the
// state is expanded in full (the cycle proviso: a cycle of the reduced
// graph must have a step back to its own level or above, so every cycle
// gets a fully expanded state). The table holds exactly the states of
// earlier levels and earlier batches during this phase, so the choice does
// not depend on the workers.
func (s *search) expandState(x *expansion, ch *chunk, state []byte) []int32 {
	b := &x.batch
	if x.red == nil {
		x.exp.Expand(state, b)
		return nil
	}
	x.red.ExpandReduced(state, b)
	for _, set := range b.Stubborn {
		x.pick = x.pick[:0]
		back := false
		for j := range b.Succs {
			if set&(1<<b.Group[j]) == 0 {
				continue
			}
			if idx, ok := s.tab.lookup(b.Succs[j].FP, b.State(j)); ok && idx < s.front.next.base {
				back = true
				break
			}
			x.pick = append(x.pick, int32(j))
		}
		if !back {
			ch.reduced++
			return x.pick
		}
	}
	if len(b.Stubborn) > 0 {
		ch.provisoFull++
	}
	return nil
}

// sameAsWinner reports, in an exact search, whether a successor that lost
// its claim (counted: r.slot is its winner's position) is the same state
// as the one that won it: the claims go by fingerprint only.
func (s *search) sameAsWinner(ch *chunk, r *succRec) bool {
	w, wr := s.recAt(uint32(r.slot))
	return bytes.Equal(ch.buf[r.off:r.end], w.buf[wr.off:wr.end])
}

// keepFirst drops all but the first n winners of the chunk (the cap of
// --max-states falls inside it).
func (s *search) keepFirst(ch *chunk, n int) {
	ch.noWinners()
	for j := range ch.recs {
		r := &ch.recs[j]
		if r.outcome != recWon {
			continue
		}
		if ch.winners == n {
			r.outcome = recLost // not stored
			continue
		}
		enc, _ := s.encodingOf(ch, r)
		ch.win(r, enc)
	}
}

// noWinners empties the chunk's count of winners, before it counts them.
func (ch *chunk) noWinners() { ch.winners, ch.winBytes, ch.encBytes = 0, 0, 0 }

// win makes r, whose state's encoding is enc, the chunk's next winner: its
// rank among the winners (indexOf) and the room its state takes.
func (ch *chunk) win(r *succRec, enc []byte) {
	r.outcome, r.idx = recWon, uint32(ch.winners)
	ch.winners++
	ch.winBytes += len(enc)
	ch.encBytes += encLen(len(enc))
}

// writeChunk writes the chunk's new states to the frontier and their
// parent links, and notes the invariants they violate (the visited set
// stores them in the same phase: storeChunk).
func (s *search) writeChunk(ch *chunk) {
	for p := range ch.bad {
		ch.bad[p] = -1
	}
	ch.out = ch.out[:0]
	for j := range ch.recs {
		r := &ch.recs[j]
		if r.outcome != recWon {
			continue
		}
		idx := s.indexOf(ch, r)
		enc, props := s.encodingOf(ch, r)
		s.front.links.set(idx, r.src, r.action)
		if err := s.front.next.set(int(idx-s.front.next.base), ch.firstByte+int64(len(ch.out)), len(enc)); err != nil {
			ch.err = err
			return
		}
		ch.out = append(ch.out, enc...)
		if s.found.leads != nil {
			s.inheritArmed(r.src, idx)
		}
		if bad := s.found.invMask&^props | s.found.reachMask&props; bad != 0 {
			for p := 0; bad != 0; p, bad = p+1, bad>>1 {
				if bad&1 != 0 && ch.bad[p] < 0 {
					ch.bad[p] = int64(idx)
				}
			}
		}
	}
	if err := s.front.next.write(ch.firstByte, ch.out); err != nil {
		ch.err = err
	}
}

// indexOf is the index of the state successor r of chunk ch reaches, once
// the batch's winners are counted: a winner's is its chunk's first index
// plus its rank among the chunk's winners (countChunk), and a loser's that
// of the winner of its claim. It reads nothing the write phase changes.
func (s *search) indexOf(ch *chunk, r *succRec) uint32 {
	switch r.outcome {
	case recWon:
		return ch.firstIdx + r.idx
	case recLost:
		w, wr := s.recAt(uint32(r.slot)) // the winner's position, once counted
		return w.firstIdx + wr.idx
	}
	return r.idx // recOld: found in the table
}

// recAt is the chunk and the record at a claim position (claimPos).
func (s *search) recAt(pos uint32) (*chunk, *succRec) {
	c, j := claimAt(pos)
	return &s.chunks[c], &s.chunks[c].recs[j]
}

// resolveChunk writes chunk ch's part of the graph: its states' edge
// offsets and marks, and its edges (which start at edge base+firstEdge).
func (s *search) resolveChunk(ch *chunk, base int) {
	g := s.graph
	e := base + ch.firstEdge
	at := uint32(e)
	for i, n := range ch.fanout {
		v := s.front.cur.base + uint32(ch.lo+i)
		g.starts.set(v, at)
		at += n
		// Atomic: the states of two chunks can share a word.
		for k, p := range s.found.kept {
			if ch.good[i]&(1<<p) != 0 {
				g.good[k].setAtomic(v)
			}
		}
		if ch.cut[i] {
			g.cut.setAtomic(v)
		}
		if ch.quiet[i] {
			g.quiet.setAtomic(v)
		}
	}
	for j, ed := range ch.edges {
		to := ed.to
		if to&newEdge != 0 {
			to = s.indexOf(ch, &ch.recs[to&^newEdge])
		}
		g.dst.set(uint32(e+j), to)
		g.class.set(uint32(e+j), ed.fair)
		if g.measured {
			g.sent.set(uint32(e+j), ch.sends[j])
		}
	}
}
