package model

// RoundTrip decodes a state and encodes it again, for the kernel's
// property tests: a state must come back byte for byte.
func (k *Kernel[L, M]) RoundTrip(state []byte) ([]byte, error) {
	e := k.newExpander()
	var w world[L, M]
	w.init(k.n)
	if err := e.decode(state, &w, nil); err != nil {
		return nil, err
	}
	return e.encode(nil, &w), nil
}

// Fingerprint is a state's fingerprint computed from its encoding alone
// (as decoding computes it), for the test that successors' incremental
// fingerprints agree with it.
func (k *Kernel[L, M]) Fingerprint(state []byte) (uint64, error) {
	e := k.newExpander()
	if err := e.decode(state, &e.cur, &e.h); err != nil {
		return 0, err
	}
	return e.h.fp, nil
}

// Fingerprinter is Fingerprint with one expander reused, for benchmarks.
func (k *Kernel[L, M]) Fingerprinter() func([]byte) uint64 {
	e := k.newExpander()
	return func(state []byte) uint64 {
		if err := e.decode(state, &e.cur, &e.h); err != nil {
			panic(err)
		}
		return e.h.fp
	}
}
