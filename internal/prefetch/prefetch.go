// Package prefetch asks the processor to bring a cache line closer before
// it is read. Go has no portable prefetch; the explorer's state table is
// hundreds of megabytes probed at random, and a plain load used as a hint
// would stall the processor until the line arrives, which is what a
// prefetch avoids: the probes of several successors then overlap.
package prefetch
