package model

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every field of the head goes through every whole-state operation: copy
// (copyFrom, and begin putting nxt back to cur), the hash from scratch and
// the incremental one, encoding, decoding and the snapshot. The variants
// are counted against head's fields, so a field added to head (section 6's
// gst) fails here until it has a variant and every operation handles it.
func TestHeadFieldsGoThroughEveryOperation(t *testing.T) {
	variants := map[string]func(h *head){
		"alive":    func(h *head) { h.alive &^= 0b010 },
		"crashes":  func(h *head) { h.crashes++ },
		"restarts": func(h *head) { h.restarts++ },
		"lay":      func(h *head) { h.lay = 5 },
		"gst":      func(h *head) { h.gst = 1 },
		"sent":     func(h *head) { h.sent.add(lostSlot, 2, 5) },
	}
	typ := reflect.TypeFor[head]()
	require.Equal(t, typ.NumField(), len(variants), "head has a field this test does not vary: add a variant for it")
	f := newFixAlg(t, tCodecAlg{}, Config{N: 3, Perm: true, MaxCrashes: 2, MaxRestarts: 1, Timing: Partial}, WithSendCounts(5))
	k, e := f.k, f.e
	var base world[tLocal, tMsg]
	base.init(k.n)
	k.initial(&base, 0)
	base.local[0].Busy = true
	numberLocals(k, &base)
	ch := 1*k.n + 2
	base.chans[ch], base.count[ch] = k.pushElem(nil, &tMsg{opNote, 4}), 1
	base.busy.add(ch)
	baseEnc := e.encode(nil, &base)
	baseSnap := e.Snapshot(baseEnc)

	for i := range typ.NumField() {
		name := typ.Field(i).Name
		change, ok := variants[name]
		require.True(t, ok, "no variant of head.%s", name)
		t.Run(name, func(t *testing.T) {
			v := base.head
			change(&v)
			require.NotEqual(t, base.head, v, "the variant changes nothing")
			assert.NotEqual(t, base.head.hash(), v.hash(), "hash")

			var w world[tLocal, tMsg]
			w.init(k.n)
			w.copyFrom(&base)
			w.head = v
			enc := e.encode(nil, &w)
			assert.NotEqual(t, baseEnc, enc, "encoding")
			var back world[tLocal, tMsg]
			back.init(k.n)
			var h hashes
			h.init(k.n)
			require.NoError(t, e.decode(enc, &back, &h))
			assert.Equal(t, v, back.head, "decoding")
			assert.Equal(t, e.fingerprint(&w), h.fp, "the hash from the encoding")
			assert.NotEqual(t, baseSnap, e.Snapshot(enc), "snapshot")

			var cp world[tLocal, tMsg]
			cp.init(k.n)
			cp.copyFrom(&w)
			assert.Equal(t, v, cp.head, "copyFrom")

			// A step that changes the field: the incremental fingerprint is
			// the one from scratch, and the next step starts from cur again.
			e.load(baseEnc)
			e.sync()
			e.begin()
			e.nxt.head = v
			assert.Equal(t, e.fingerprint(&e.nxt), e.succFP(), "incremental hash")
			e.begin()
			assert.Equal(t, base.head, e.nxt.head, "begin")
		})
	}
}

// The encoding's fixed widths hold their largest values: 16 processes, all
// live, the last channel (index 255) holding 255 messages, 255 crashes and
// restarts. And a configuration beyond them is refused where the widths are
// defined, whatever Config.Validate allows.
func TestEncodingWidths(t *testing.T) {
	f := newFix(t, Config{N: MaxN, MaxQueue: maxChanCount, MaxCrashes: 255, MaxRestarts: 255})
	s := ws{Alive: 1<<MaxN - 1, Local: make([]tLocal, MaxN), Crashes: 255, Restarts: 255, Chans: chans{}}
	for i := range maxChanCount {
		s.Chans[[2]int{MaxN - 1, MaxN - 1}] = append(s.Chans[[2]int{MaxN - 1, MaxN - 1}], note(i))
	}
	s.Chans[[2]int{0, 1}] = []tMsg{note(1)}
	requireState(t, MaxN, s, f.dec(t, f.enc(s)))

	ok := Config{N: MaxN, MaxQueue: maxChanCount, MaxCrashes: maxCounter, MaxRestarts: maxCounter}
	require.NoError(t, checkWidths(&ok, maxActionField+1, 0, maxSendCap))
	for _, c := range []struct {
		change  func(c *Config)
		timers  int
		sendCap int
		want    string
	}{
		{func(c *Config) { c.N++ }, 0, 0, "17 processes do not fit"},
		{func(c *Config) { c.MaxQueue++ }, 0, 0, "a channel bound of 256 does not fit"},
		{func(c *Config) { c.MaxCrashes++ }, 0, 0, "65536 crashes"},
		{func(c *Config) { c.MaxRestarts++ }, 0, 0, "65536 restarts"},
		{func(*Config) {}, maxActionField + 2, 0, "257 timers do not fit"},
		{func(*Config) {}, 0, maxSendCap + 1, "sends counted up to 65536 do not fit"},
	} {
		cfg := ok
		c.change(&cfg)
		err := checkWidths(&cfg, c.timers, 0, c.sendCap)
		require.Error(t, err)
		assert.Contains(t, err.Error(), c.want)
	}
}

// A channel's hash counts its elements even when they encode to no bytes,
// for every count the encoding allows (hashChan's count field is narrower
// than maxChanCount).
func TestChannelHashCountsEveryCount(t *testing.T) {
	keys := newKeys(4)
	seen := map[uint64]int{}
	for count := 1; count <= maxChanCount; count++ {
		x := keys.hashChan(5, count, nil)
		if c, ok := seen[x]; ok {
			t.Fatalf("counts %d and %d of empty elements hash alike", c, count)
		}
		seen[x] = count
	}
}

// The fairness table numbers every family's members consecutively, names
// each class once, and names classes outside it without a panic (a kernel
// without timers included).
func TestFairnessTable(t *testing.T) {
	f := newFix(t, Config{N: 3, IDs: []int{3, 9, 4}})
	k := f.k
	want := []string{
		"deliver p3→p3", "deliver p3→p9", "deliver p3→p4", "deliver p9→p3", "deliver p9→p9",
		"deliver p9→p4", "deliver p4→p3", "deliver p4→p9", "deliver p4→p4",
		"initiate p3", "initiate p9", "initiate p4",
		"timeout-ok p3", "timeout-coord p3", "timeout-ok p9", "timeout-coord p9", "timeout-ok p4", "timeout-coord p4",
	}
	for c, name := range want {
		assert.Equal(t, name, k.FairClass(int32(c)))
	}
	for p := range 3 {
		for q := range 3 {
			assert.Equal(t, want[p*3+q], k.FairClass(k.classDeliver(p, q)))
		}
		assert.Equal(t, want[9+p], k.FairClass(k.classInitiate(p)))
		for tm := range 2 {
			assert.Equal(t, want[12+p*2+tm], k.FairClass(k.classTimer(p, tm)))
		}
	}
	assert.Equal(t, "class 18", k.FairClass(18))
	assert.Equal(t, "unfair", k.FairClass(NoFairness))

	bare := newFixAlg(t, bareAlg{}, Config{N: 2})
	assert.Equal(t, "initiate p2", bare.k.FairClass(5))
	assert.Equal(t, "class 6", bare.k.FairClass(6))
}
