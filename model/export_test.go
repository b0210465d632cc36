package model

// RoundTrip decodes a state and encodes it again, for the kernel's
// property tests: a state must come back byte for byte.
func (k *Kernel[L, M]) RoundTrip(state []byte) ([]byte, error) {
	e := k.newExpander()
	var w world[L, M]
	w.init(k.n)
	if err := e.decode(state, &w); err != nil {
		return nil, err
	}
	return e.encode(nil, &w), nil
}
