package explore

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// The claim protocol under the race detector (.ci/run runs this test with
// -race): many goroutines look up, claim, insert and resolve fingerprints
// in the phases of a batch, round after round, on a table that starts at
// one segment and grows between rounds. Every phase is checked against a
// sequential model: the earliest position wins, every new state is stored
// once with its index, every loser resolves to its winner's index.
func TestTableAndClaimsUnderRace(t *testing.T) {
	const (
		rounds     = 40
		perRound   = 6000
		goroutines = 16 // one chunk each (claimPos allows 64)
	)
	rng := rand.New(rand.NewPCG(13, 13))
	tab := newTable(0, true)
	defer tab.free()
	startSize := tab.size
	var cl claims
	var enc encoded
	model := map[uint64]uint32{} // fingerprint -> index
	var seen []uint64
	type rec struct {
		fp, slot, tslot uint64
		idx             uint32
		old, won        bool
		encodes         bool // the encoded set named it to encode its state
	}
	perChunk := perRound / goroutines
	at := func(pos uint32) int { // the record at a claim position
		c, j := claimAt(pos)
		return c*perChunk + j
	}
	parallel := func(f func(c int, recs []rec)) func([]rec) {
		return func(all []rec) {
			var wg sync.WaitGroup
			for c := range goroutines {
				wg.Add(1)
				go func() {
					defer wg.Done()
					f(c, all[c*perChunk:(c+1)*perChunk])
				}()
			}
			wg.Wait()
		}
	}
	for round := range rounds {
		recs := make([]rec, perRound)
		for i := range recs {
			switch x := rng.IntN(10); {
			case x < 3 && len(seen) > 0: // a state of an earlier round
				recs[i].fp = seen[rng.IntN(len(seen))]
			case x < 6 && i > 0: // one reached earlier in this round
				recs[i].fp = recs[rng.IntN(i)].fp
			case x == 6:
				recs[i].fp = 0 // the fingerprint that marks empty slots
			default:
				recs[i].fp = rng.Uint64()
			}
		}
		cl.reset(perRound)
		// Every other round the encoded set is far too small: it must
		// then tell more successors to encode, never fewer.
		if round%2 == 0 {
			enc.reset(perRound)
		} else {
			enc.reset(50)
		}
		gen := tab.gen
		parallel(func(c int, rs []rec) {
			for j := range rs {
				r := &rs[j]
				idx, slot, old := tab.lookupSlot(r.fp, nil, true)
				r.old, r.idx, r.tslot = old, idx, slot
				if !old {
					r.slot = cl.claim(r.fp, claimPos(c, j))
					r.encodes, _ = enc.add(r.fp, claimPos(c, j), false)
				}
			}
		})(recs)
		parallel(func(c int, rs []rec) {
			for j := range rs {
				rs[j].won = !rs[j].old && cl.won(rs[j].slot, claimPos(c, j))
			}
		})(recs)
		// Every new state is encoded by some successor, and a successor
		// told not to encode finds, as its state's owner, one that did.
		encoder := map[uint64]bool{}
		for i := range recs {
			if recs[i].encodes {
				encoder[fix(recs[i].fp)] = true
			}
		}
		for i := range recs {
			r := &recs[i]
			if r.old {
				continue
			}
			require.True(t, encoder[fix(r.fp)], "round %d: nobody encodes %#x", round, r.fp)
			if !r.encodes {
				pos := enc.owner(r.fp)
				o := &recs[at(pos)]
				require.True(t, o.encodes && fix(o.fp) == fix(r.fp), "round %d: owner of %#x", round, r.fp)
			}
		}
		// Indices in sequential order, as runBatch numbers them.
		prior := uint32(len(model))
		next, winners := prior, 0
		for i := range recs {
			r := &recs[i]
			want, inModel := model[fix(r.fp)]
			require.Equal(t, inModel && want < prior, r.old, "round %d: lookup of %#x", round, r.fp)
			if r.old {
				require.Equal(t, want, r.idx)
				continue
			}
			require.Equal(t, !inModel, r.won, "round %d: the earliest successor wins", round)
			if r.won {
				r.idx = next
				model[fix(r.fp)] = next
				seen = append(seen, r.fp)
				next++
				winners++
			}
		}
		tab.reserve(winners)
		grew := tab.gen != gen
		// Inserts and the losers' indices in one phase, as the write phase
		// does: a loser takes its winner's index through the claim.
		parallel(func(c int, rs []rec) {
			for j := range rs {
				if r := &rs[j]; r.won {
					if grew {
						tab.insert(r.fp, r.idx)
					} else {
						tab.insertFrom(r.tslot, r.fp, r.idx)
					}
				} else if !r.old {
					pos := cl.winner(r.slot)
					r.idx = recs[at(pos)].idx
				}
			}
		})(recs)
		for i := range recs {
			require.Equal(t, model[fix(recs[i].fp)], recs[i].idx, "round %d: index of %#x", round, recs[i].fp)
		}
	}
	require.Positive(t, tab.gen, "the table must grow during the test")
	require.Greater(t, tab.size, startSize)
	for fp, idx := range model {
		got, ok := tab.lookup(fp, nil)
		require.True(t, ok)
		require.Equal(t, idx, got)
	}
}
