package msc

import "math"

// The label placer: every label has a few candidate boxes, and takes the
// first of the cheapest, where a box costs by what it would cover: arrows,
// lanes, marks and labels placed before it. Candidates are tried in a fixed
// order, so the layout is deterministic.

type point struct{ x, y float64 }

type box struct{ x0, y0, x1, y1 float64 }

func (b box) overlaps(o box) bool {
	return b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1
}

// Costs of covering things with a label.
const (
	costArrow   = 10  // an arrow passes under the label
	costLane    = 3   // a lane line passes under it
	costHead    = 30  // an arrowhead, a lost message's ✗, a send dot
	costMark    = 40  // a crash, restart or timeout mark
	costLabel   = 60  // another label
	costOutside = 200 // out of the lanes' area
	costRank    = 0.1 // each later candidate: only breaks ties
)

type segment struct {
	a, b   point
	weight float64
}

type placer struct {
	segs       []segment
	boxes      []weighted
	minX, maxX float64
}

type weighted struct {
	b      box
	weight float64
}

func (p *placer) addSegment(a, b point, w float64) { p.segs = append(p.segs, segment{a, b, w}) }
func (p *placer) addBox(b box, w float64)          { p.boxes = append(p.boxes, weighted{b, w}) }

func (p *placer) cost(b box) float64 {
	c := 0.0
	if b.x0 < p.minX || b.x1 > p.maxX {
		c += costOutside
	}
	for _, s := range p.segs {
		if segmentHitsBox(s.a, s.b, b) {
			c += s.weight
		}
	}
	for _, o := range p.boxes {
		if b.overlaps(o.b) {
			c += o.weight
		}
	}
	return c
}

// place picks the cheapest candidate and keeps it as an obstacle for the
// labels placed after it.
func (p *placer) place(cands []box) box {
	b, _ := p.placeBelow(cands, math.Inf(1))
	return b
}

// placeBelow places a label only where it costs less than limit: for the
// labels a chart can do without.
func (p *placer) placeBelow(cands []box, limit float64) (box, bool) {
	best, bestCost := cands[0], math.Inf(1)
	for i, b := range cands {
		if c := p.cost(b) + float64(i)*costRank; c < bestCost {
			best, bestCost = b, c
		}
	}
	if bestCost >= limit {
		return box{}, false
	}
	p.addBox(best, costLabel)
	return best, true
}

// segmentHitsBox clips the segment a-b against the box (Liang-Barsky).
func segmentHitsBox(a, b point, r box) bool {
	dx, dy := b.x-a.x, b.y-a.y
	t0, t1 := 0.0, 1.0
	clip := func(p, q float64) bool {
		if p == 0 {
			return q >= 0
		}
		t := q / p
		if p < 0 {
			if t > t1 {
				return false
			}
			t0 = max(t0, t)
		} else {
			if t < t0 {
				return false
			}
			t1 = min(t1, t)
		}
		return true
	}
	return clip(-dx, a.x-r.x0) && clip(dx, r.x1-a.x) && clip(-dy, a.y-r.y0) && clip(dy, r.y1-a.y) && t0 < t1
}
