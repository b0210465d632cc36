package model

// numberLocals numbers the local states of a world a test built by hand.
func numberLocals[L, M any](k *Kernel[L, M], w *world[L, M]) {
	for p := range w.local {
		var err error
		if w.lid[p], err = k.localTab.number(k.codec.AppendLocal(nil, &w.local[p])); err != nil {
			panic(err)
		}
	}
}
