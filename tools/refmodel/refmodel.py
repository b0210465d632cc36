#!/usr/bin/env python3
"""Independent reference explorer for /work/shared/semantics.md.

Plain Python 3.11, standard library only.  Breadth-first exploration with exact
set-of-states deduplication (a dict keyed by the full state tuple).

Global state (immutable, hashable):
    (alive, locals, chans, crashes, restarts)
  alive   : tuple of bools, index = ring position
  locals  : tuple of per-process local-state tuples (algorithm specific, see below)
  chans   : tuple of N*N tuples of messages; chan(p,q) is chans[p*N+q]
  crashes, restarts : ints

Local states (BOT = None):
  ring                : (busy, elected)
  chang-roberts       : (participant, elected)
  lelann              : (status, known(frozenset), elected)
  hirschberg-sinclair : (status, phase, replies, elected)
  bully               : (status, elected)

Messages are tuples: ('ELECTION', j), ('ELECTED', j), ('ELECT', j),
('PROBE', j, k, h, d), ('REPLY', j, k, d), ('OK', j), ('COORDINATOR', j).
"""
import argparse
import json
import sys
import time
from collections import deque

ALGOS = ("ring", "chang-roberts", "lelann", "hirschberg-sinclair", "bully")
CW, CCW = "cw", "ccw"


def back(d):
    return CCW if d == CW else CW


class Ctx:
    """Mutable working copy of a state while one action executes."""
    __slots__ = ("m", "alive", "loc", "ch", "crashes", "restarts")

    def __init__(self, m, s):
        self.m = m
        self.alive = list(s[0])
        self.loc = list(s[1])
        self.ch = list(s[2])
        self.crashes = s[3]
        self.restarts = s[4]

    def freeze(self):
        return (tuple(self.alive), tuple(self.loc), tuple(self.ch),
                self.crashes, self.restarts)

    def nxt(self, p, d):
        n = self.m.n
        step = 1 if d == CW else -1
        for i in range(1, n):
            q = (p + step * i) % n
            if self.alive[q]:
                return q
        return p  # p is the only live process: a message to itself

    def send(self, p, q, msg):
        if self.alive[q]:
            i = p * self.m.n + q
            self.ch[i] = self.ch[i] + (msg,)
        # else: message to a crashed process is lost

    def send_dir(self, p, d, msg):
        self.send(p, self.nxt(p, d), msg)

    def suspects(self, p):
        e = self.loc[p][-1]  # elected is always the last local field
        return e is None or not self.alive[self.m.pos[e]]


class Model:
    def __init__(self, algo, n, ids=None, max_crashes=0, max_restarts=0,
                 detector="perfect", initiators=None, down=None,
                 initial_leader=None, max_queue=None):
        assert algo in ALGOS
        assert n >= 2
        self.algo = algo
        self.n = n
        self.ids = list(ids) if ids else [p + 1 for p in range(n)]
        assert len(self.ids) == n and len(set(self.ids)) == n and min(self.ids) > 0
        self.pos = {i: p for p, i in enumerate(self.ids)}
        self.max_crashes = max_crashes
        self.max_restarts = max_restarts
        self.unreliable = detector == "unreliable"
        # initiators / down are given as IDs
        self.initiators = (sorted(self.pos[i] for i in initiators)
                           if initiators is not None else list(range(n)))
        self.down = set(self.pos[i] for i in down) if down else set()
        if initial_leader is None:
            initial_leader = (algo == "bully")
        self.initial_leader = initial_leader
        self.max_queue = max_queue if max_queue is not None else 2 * n
        # bully: higher/lower in ascending ID order (live or not)
        order = sorted(range(n), key=lambda p: self.ids[p])
        self.higher = [[q for q in order if self.ids[q] > self.ids[p]] for p in range(n)]
        self.lower = [[q for q in order if self.ids[q] < self.ids[p]] for p in range(n)]
        self.handler = {
            "ring": self.h_ring, "chang-roberts": self.h_cr, "lelann": self.h_lelann,
            "hirschberg-sinclair": self.h_hs, "bully": self.h_bully}[algo]

    # ---------------------------------------------------------------- locals
    def initial_local(self):
        a = self.algo
        if a == "ring":
            return (False, None)
        if a == "chang-roberts":
            return (False, None)
        if a == "lelann":
            return ("idle", frozenset(), None)
        if a == "hirschberg-sinclair":
            return ("idle", 0, 0, None)
        return ("idle", None)

    def leader_local(self):
        """Local state 'as if an election of the largest ID had just ended'."""
        mx = max(self.ids)  # max over ALL ids (down processes included)
        a = self.algo
        if a in ("ring", "chang-roberts"):
            return (False, mx)
        if a == "lelann":
            return ("decided", frozenset(), mx)
        if a == "hirschberg-sinclair":
            return ("decided", 0, 0, mx)
        return ("idle", mx)

    def initial_state(self):
        n = self.n
        alive = tuple(p not in self.down for p in range(n))
        loc = tuple((self.leader_local() if (self.initial_leader and alive[p])
                     else self.initial_local()) for p in range(n))
        return (alive, loc, tuple(() for _ in range(n * n)), 0, 0)

    # ------------------------------------------------------------ handlers
    def h_ring(self, c, p, frm, msg):
        kind, j = msg
        me = self.ids[p]
        if kind == "ELECTION":
            c.loc[p] = (True, None)
            if j > me:
                c.send_dir(p, CW, ("ELECTION", j))
            elif j < me:
                c.send_dir(p, CW, ("ELECTION", me))
            else:
                c.send_dir(p, CW, ("ELECTED", me))
        elif kind == "ELECTED":
            c.loc[p] = (False, j)
            if j != me:
                c.send_dir(p, CW, ("ELECTED", j))
        else:
            raise ValueError(msg)

    def h_cr(self, c, p, frm, msg):
        kind, j = msg
        me = self.ids[p]
        participant, elected = c.loc[p]
        if kind == "ELECTION":
            if j > me:
                c.loc[p] = (True, None)
                c.send_dir(p, CW, ("ELECTION", j))
            elif j < me and not participant:
                c.loc[p] = (True, None)
                c.send_dir(p, CW, ("ELECTION", me))
            elif j < me and participant:
                pass  # drop
            else:  # j == me
                c.loc[p] = (False, me)
                c.send_dir(p, CW, ("ELECTED", me))
        elif kind == "ELECTED":
            c.loc[p] = (False, j)
            if j != me:
                c.send_dir(p, CW, ("ELECTED", j))
        else:
            raise ValueError(msg)

    def h_lelann(self, c, p, frm, msg):
        kind, j = msg
        assert kind == "ELECT"
        me = self.ids[p]
        status, known, elected = c.loc[p]
        if j == me:
            if status == "running":
                c.loc[p] = ("decided", known, max(known))  # known keeps its value
            # else drop
            return
        if status == "running":
            c.loc[p] = (status, known | {j}, elected)
            c.send_dir(p, CW, ("ELECT", j))
        elif status == "idle" or (status == "decided" and c.suspects(p)):
            c.loc[p] = ("running", frozenset((me, j)), None)
            c.send_dir(p, CW, ("ELECT", me))   # own ID first
            c.send_dir(p, CW, ("ELECT", j))    # then forward
        else:  # decided and not suspects: relay only
            c.send_dir(p, CW, ("ELECT", j))

    def hs_start(self, c, p):
        me = self.ids[p]
        c.loc[p] = ("candidate", 0, 0, None)
        c.send_dir(p, CW, ("PROBE", me, 0, 1, CW))
        c.send_dir(p, CCW, ("PROBE", me, 0, 1, CCW))

    def h_hs(self, c, p, frm, msg):
        me = self.ids[p]
        status, phase, replies, elected = c.loc[p]
        kind = msg[0]
        if kind == "PROBE":
            _, j, k, h, d = msg
            if j == me:
                if status == "candidate":
                    c.loc[p] = ("decided", phase, replies, me)
                    c.send_dir(p, CW, ("ELECTED", me))
                # else drop
            elif j > me:
                if status in ("idle", "candidate") or (status == "decided" and c.suspects(p)):
                    c.loc[p] = ("relay", phase, replies, None)
                if h < 2 ** k:
                    c.send_dir(p, d, ("PROBE", j, k, h + 1, d))
                else:
                    c.send_dir(p, back(d), ("REPLY", j, k, back(d)))
            else:  # j < me: drop, maybe start
                if status == "idle" or (status == "decided" and c.suspects(p)):
                    self.hs_start(c, p)
        elif kind == "REPLY":
            _, j, k, d = msg
            if j != me:
                c.send_dir(p, d, ("REPLY", j, k, d))
            elif status == "candidate" and k == phase:
                replies += 1
                if replies == 2:
                    phase = k + 1
                    replies = 0
                    c.loc[p] = (status, phase, replies, elected)
                    c.send_dir(p, CW, ("PROBE", me, phase, 1, CW))
                    c.send_dir(p, CCW, ("PROBE", me, phase, 1, CCW))
                else:
                    c.loc[p] = (status, phase, replies, elected)
            # otherwise drop
        elif kind == "ELECTED":
            _, j = msg
            c.loc[p] = ("decided", phase, replies, j)
            if j != me:
                c.send_dir(p, CW, ("ELECTED", j))
        else:
            raise ValueError(msg)

    def bully_start(self, c, p):
        me = self.ids[p]
        if not self.higher[p]:
            c.loc[p] = ("idle", me)
            for q in self.lower[p]:
                c.send(p, q, ("COORDINATOR", me))
        else:
            c.loc[p] = ("electing", None)
            for q in self.higher[p]:
                c.send(p, q, ("ELECTION", me))

    def bully_become_coord(self, c, p):
        me = self.ids[p]
        c.loc[p] = ("idle", me)
        for q in self.lower[p]:
            c.send(p, q, ("COORDINATOR", me))

    def h_bully(self, c, p, frm, msg):
        kind, j = msg
        me = self.ids[p]
        status, elected = c.loc[p]
        if kind == "ELECTION":
            c.send(p, frm, ("OK", me))
            if status == "idle":
                self.bully_start(c, p)
        elif kind == "OK":
            if status == "electing":
                c.loc[p] = ("waiting", elected)
        elif kind == "COORDINATOR":
            if j > me:
                c.loc[p] = ("idle", j)
            elif j < me and status == "idle":
                self.bully_start(c, p)
            # otherwise drop
        else:
            raise ValueError(msg)

    # ------------------------------------------------------ initiate guards
    def init_guard(self, loc, susp):
        """The algorithm's initiate/detect guard (liveness checked by caller)."""
        a = self.algo
        if a in ("ring", "chang-roberts"):
            return (not loc[0]) and susp
        if a == "lelann":
            return loc[0] != "running" and susp
        if a == "hirschberg-sinclair":
            st = loc[0]
            return (st == "idle" or (st == "decided" and susp)) and susp
        return loc[0] == "idle" and susp

    def init_effect(self, c, p):
        a = self.algo
        me = self.ids[p]
        if a == "ring":
            c.loc[p] = (True, None)
            c.send_dir(p, CW, ("ELECTION", me))
        elif a == "chang-roberts":
            c.loc[p] = (True, None)
            c.send_dir(p, CW, ("ELECTION", me))
        elif a == "lelann":
            c.loc[p] = ("running", frozenset((me,)), None)
            c.send_dir(p, CW, ("ELECT", me))
        elif a == "hirschberg-sinclair":
            self.hs_start(c, p)
        else:
            self.bully_start(c, p)

    # ---------------------------------------------------- bully timeout guards
    def tok_perfect(self, s, p):
        alive, chans, n = s[0], s[2], self.n
        if any(alive[q] for q in self.higher[p]):
            return False
        for r in range(n):
            for m in chans[r * n + p]:
                if m[0] == "OK":
                    return False
        return True

    def tcoord_perfect(self, s, p):
        alive, chans, n = s[0], s[2], self.n
        if any(alive[q] for q in self.higher[p]):
            return False
        me = self.ids[p]
        for r in range(n):
            for m in chans[r * n + p]:
                if m[0] == "COORDINATOR" and m[1] > me:
                    return False
        return True

    # ------------------------------------------------------------- actions
    def actions(self, s):
        """List of (label, fair_class_or_None, ctx) for every enabled action
        instance (before the channel bound is applied)."""
        n = self.n
        alive, loc, chans, crashes, restarts = s
        out = []
        # deliver(p->q)
        for p in range(n):
            for q in range(n):
                ch = chans[p * n + q]
                if ch and alive[q]:
                    c = Ctx(self, s)
                    c.ch[p * n + q] = ch[1:]
                    self.handler(c, q, p, ch[0])
                    out.append((("deliver", p, q), ("deliver", p, q), c))
        # initiate / detect
        for q in self.initiators:
            if alive[q]:
                e = loc[q][-1]
                susp = e is None or not alive[self.pos[e]]
                if self.init_guard(loc[q], susp):
                    c = Ctx(self, s)
                    self.init_effect(c, q)
                    out.append((("initiate", q), ("initiate", q), c))
        # bully justified timeouts
        if self.algo == "bully":
            for q in range(n):
                if not alive[q]:
                    continue
                st = loc[q][0]
                if st == "electing" and self.tok_perfect(s, q):
                    c = Ctx(self, s)
                    self.bully_become_coord(c, q)
                    out.append((("timeout-ok", q), ("timeout-ok", q), c))
                if st == "waiting" and self.tcoord_perfect(s, q):
                    c = Ctx(self, s)
                    self.bully_start(c, q)
                    out.append((("timeout-coord", q), ("timeout-coord", q), c))
        # crash(q)
        if crashes < self.max_crashes:
            nlive = sum(alive)
            for q in range(n):
                if alive[q] and nlive >= 2:
                    c = Ctx(self, s)
                    c.alive[q] = False
                    c.loc[q] = self.initial_local()
                    for r in range(n):
                        c.ch[r * n + q] = ()
                    c.crashes += 1
                    out.append((("crash", q), None, c))
        # restart(q)
        if restarts < self.max_restarts:
            for q in range(n):
                if not alive[q]:
                    c = Ctx(self, s)
                    c.alive[q] = True
                    c.loc[q] = self.initial_local()
                    c.restarts += 1
                    if self.algo == "bully":
                        self.bully_start(c, q)
                    out.append((("restart", q), None, c))
        # unreliable detector: spurious actions (unfair)
        if self.unreliable:
            for q in self.initiators:
                if not alive[q]:
                    continue
                e = loc[q][-1]
                if e is None or e == self.ids[q] or not alive[self.pos[e]]:
                    continue
                if self.init_guard(loc[q], True):
                    c = Ctx(self, s)
                    self.init_effect(c, q)
                    out.append((("suspect", q), None, c))
            if self.algo == "bully":
                for q in range(n):
                    if not alive[q]:
                        continue
                    st = loc[q][0]
                    if st == "electing":
                        c = Ctx(self, s)
                        self.bully_become_coord(c, q)
                        out.append((("early-timeout-ok", q), None, c))
                    if st == "waiting":
                        c = Ctx(self, s)
                        self.bully_start(c, q)
                        out.append((("early-timeout-coord", q), None, c))
        return out

    def successors(self, s):
        """[(label, fair_class, succ_state)] for kept successors, and the number
        discarded by the channel bound."""
        K = self.max_queue
        kept, disc = [], 0
        for label, fc, c in self.actions(s):
            if max(map(len, c.ch)) > K:  # any channel longer than K after the step
                disc += 1
                continue
            kept.append((label, fc, c.freeze()))
        return kept, disc

    # ---------------------------------------------------------- predicates
    def single_leader(self, s):
        alive, loc = s[0], s[1]
        cnt = sum(1 for p in range(self.n) if alive[p] and loc[p][-1] == self.ids[p])
        return cnt <= 1

    def agreement(self, s):
        alive, loc = s[0], s[1]
        vals = set()
        for p in range(self.n):
            if alive[p]:
                e = loc[p][-1]
                if e is not None and alive[self.pos[e]]:
                    vals.add(e)
        return len(vals) <= 1

    def stable(self, s):
        alive, loc = s[0], s[1]
        live = [p for p in range(self.n) if alive[p]]
        if not live:  # only possible with every process --down: vacuously Stable
            return True
        mx = max(self.ids[p] for p in live)
        return all(loc[p][-1] == mx for p in live)


# --------------------------------------------------------------- exploration
def explore(m, termination=True, progress=False):
    init = m.initial_state()
    index = {init: 0}
    states = [init]
    level = [0]
    succs = []      # per state: list of successor indices (one per kept transition)
    fair = []       # per state: dict fair_class -> successor index
    transitions = 0
    discarded = 0
    sl = {"violated": False, "depth": None}
    ag = {"violated": False, "depth": None}
    st = {"exists": False, "depth": None}
    stable_flags = []
    stuck_states = []
    i = 0
    t0 = time.time()
    while i < len(states):
        s = states[i]
        d = level[i]
        if progress and i and i % 200000 == 0:
            print(f"progress: explored {i} found {len(states)} level {d} "
                  f"{time.time() - t0:.0f}s", file=sys.stderr, flush=True)
        # properties (BFS order => first hit has minimal depth)
        if not sl["violated"] and not m.single_leader(s):
            sl = {"violated": True, "depth": d}
        if not ag["violated"] and not m.agreement(s):
            ag = {"violated": True, "depth": d}
        stbl = m.stable(s)
        kept, disc = m.successors(s)
        discarded += disc
        transitions += len(kept)
        sl_idx = []
        fmap = {}
        for label, fc, t in kept:
            j = index.get(t)
            if j is None:
                j = len(states)
                index[t] = j
                states.append(t)
                level.append(d + 1)
            if termination:
                sl_idx.append(j)
            if fc is not None:
                fmap[fc] = j
        if not fmap and not stbl:
            if not st["exists"]:
                st = {"exists": True, "depth": d}
            stuck_states.append(i)
        if termination:
            succs.append(sl_idx)
            fair.append(fmap)
            stable_flags.append(stbl)
        i += 1
    res = {
        "states": len(states),
        "transitions": transitions,
        "depth": max(level),
        "discarded": discarded,
        "single_leader": sl,
        "agreement": ag,
        "stuck": st,
        "termination": None,
    }
    if termination:
        res["termination"] = termination_check(len(states), succs, fair,
                                               stable_flags, bool(stuck_states))
    return res


def tarjan(nn, succs):
    """Iterative Tarjan SCC.  Returns comp[] (component id per node)."""
    index = [-1] * nn
    low = [0] * nn
    onstack = [False] * nn
    comp = [-1] * nn
    stack = []
    counter = 0
    ncomp = 0
    for root in range(nn):
        if index[root] != -1:
            continue
        work = [(root, 0)]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        onstack[root] = True
        while work:
            v, pi = work[-1]
            sv = succs[v]
            if pi < len(sv):
                work[-1] = (v, pi + 1)
                w = sv[pi]
                if index[w] == -1:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    onstack[w] = True
                    work.append((w, 0))
                elif onstack[w]:
                    if index[w] < low[v]:
                        low[v] = index[w]
            else:
                work.pop()
                if work:
                    u = work[-1][0]
                    if low[v] < low[u]:
                        low[u] = low[v]
                if low[v] == index[v]:
                    while True:
                        w = stack.pop()
                        onstack[w] = False
                        comp[w] = ncomp
                        if w == v:
                            break
                    ncomp += 1
    return comp, ncomp


def termination_check(nn, succs, fair, stable_flags, has_stuck):
    """<>[]Stable under weak fairness.

    Violated iff (a) a reachable non-Stable state has no fair action enabled
    (the behaviour may stop there), or (b) there is a reachable fair cycle
    passing a non-Stable state.

    Reasoning for (b) with WEAK fairness.  Take an SCC S with at least one edge
    inside it (size > 1, or a self-loop).  Let E(S) = fair classes enabled in
    every state of S, and call a class taken in S if, for some state s in S, the
    class's (deterministic) successor from s lies in S -- i.e. some step of S
    satisfies that action (this covers an early-timeout step whose perfect
    guard held: it yields the very same successor as the justified timeout).
      * If every class of E(S) is taken in S, the closed walk that traverses
        every edge of S is a fair cycle: a class enabled in all its states is
        in E(S) (the walk visits all of S) and is taken.  It visits every state
        of S, so if S holds a non-Stable state we have a violation.
      * If some class C of E(S) is not taken in S, then every cycle inside S
        has C enabled in all of its states and never takes C: no cycle inside
        S is fair.  (Unlike strong fairness, no refinement by removing states
        is needed: shrinking S to a sub-cycle never makes C disabled at some
        state of it, since C is enabled everywhere in S.)
    Every cycle lies inside one SCC, so checking each SCC once is complete.
    """
    if has_stuck:
        return "violated"
    comp, ncomp = tarjan(nn, succs)
    members = [[] for _ in range(ncomp)]
    for v in range(nn):
        members[comp[v]].append(v)
    for cid in range(ncomp):
        mem = members[cid]
        # non-trivial?
        if len(mem) == 1:
            v = mem[0]
            if v not in succs[v]:
                continue
        if all(stable_flags[v] for v in mem):
            continue
        common = None
        for v in mem:
            ks = set(fair[v].keys())
            common = ks if common is None else (common & ks)
            if not common:
                break
        ok = True
        for cls in (common or ()):
            if not any(comp[fair[v][cls]] == cid for v in mem):
                ok = False
                break
        if ok:
            return "violated"
    return "holds"


# ----------------------------------------------------------------------- CLI
def parse_ids(s):
    return [int(x) for x in s.split(",") if x.strip()] if s else None


def build_from_argv(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--algo", required=True, choices=ALGOS)
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--crash-any", action="store_true")
    ap.add_argument("--crashes", type=int, default=None)
    ap.add_argument("--restarts", type=int, default=0)
    ap.add_argument("--detector", choices=("perfect", "unreliable"), default="perfect")
    ap.add_argument("--ids", default=None)
    ap.add_argument("--initiators", default=None)
    ap.add_argument("--down", default=None)
    ap.add_argument("--initial-leader", nargs="?", const="true", default=None,
                    choices=("true", "false"))
    ap.add_argument("--max-queue", type=int, default=None)
    ap.add_argument("--no-termination", action="store_true")
    ap.add_argument("--progress", action="store_true")
    a = ap.parse_args(argv)
    if a.crash_any:
        maxc = a.n - 1
        if a.crashes is not None and a.crashes != a.n - 1:
            ap.error("--crash-any with --crashes other than N-1")
    else:
        maxc = a.crashes or 0
    il = None if a.initial_leader is None else (a.initial_leader == "true")
    m = Model(a.algo, a.n, ids=parse_ids(a.ids), max_crashes=maxc,
              max_restarts=a.restarts, detector=a.detector,
              initiators=parse_ids(a.initiators), down=parse_ids(a.down),
              initial_leader=il, max_queue=a.max_queue)
    return m, a


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    m, a = build_from_argv(argv)
    t0 = time.time()
    res = explore(m, termination=not a.no_termination, progress=a.progress)
    out = {"args": " ".join(x for x in argv if x not in ("--no-termination", "--progress"))}
    out.update(res)
    out["seconds"] = round(time.time() - t0, 2)
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
