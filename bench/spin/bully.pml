/* bully.pml -- Garcia-Molina's Bully algorithm, perfect detector,
 * semantics of /work/shared/semantics.md (sections 1 and 3, "bully").
 *
 *   spin -a -DN=4 -DIL=0 [-DCRASHANY | -DMAXCRASH=c] [-DMAXRESTART=r] [-DK=8] bully.pml
 *
 * One process, one `do` loop; each semantic action instance is one guarded
 * d_step (one SPIN transition, no intermediate state).  The global state is
 * exactly the semantic state: alive[], status[], elected[], the channels
 * (chan(p,p), always empty in Bully, is left out) and the crash/restart
 * counters; scratch variables are `hidden` (not in the state vector) and
 * reset by every step.  The channel bound is part of each guard, so a step
 * that would leave more than K messages in a channel is not enabled.
 * Messages carry only their kind: ELECTION(j)/OK(j)/COORDINATOR(j) always
 * carry the sender's ID, which the channel already determines.
 */
#ifndef IL
#define IL 1                       /* bully: --initial-leader on by default */
#endif
/* Bully never sends to itself: chan(p,p) is always empty, so it is left out
 * of the state vector; chan(a,b), a != b, is ch[a*(N-1) + (b < a ? b : b-1)]. */
#define SELFCHAN 0
#define NCH (N*(N-1))
#define C(a,b) ch[(a)*(N-1) + ((b) < (a) -> (b) : ((b) > (a) -> (b)-1 : 0))]
#include "iter.h"

#define IDLE     0
#define ELECTING 1
#define WAITING  2
#define ELEC  1
#define OKM   2
#define COORD 3

bool alive[N] = true;
byte status[N];                    /* idle | electing | waiting */
#if IL
byte elected[N] = N;               /* an election of the max ID just ended */
#else
byte elected[N];                   /* 0 is bottom */
#endif
byte crashes;
byte restarts;
chan ch[NCH] = [K] of { byte };
SCRATCH byte m, r;

/* becomeCoordinator / StartElection (sends in ascending ID order) */
inline becomeCoord(p) {
	elected[p] = (p)+1; status[p] = IDLE;
	r = 0;
	do
	:: r < (p) -> SEND(p, r, COORD); r++
	:: else -> break
	od;
	r = 0
}
inline startElection(p) {
	if
	:: (p) == N-1 -> becomeCoord(p)
	:: else ->
		elected[p] = 0; status[p] = ELECTING;
		r = (p)+1;
		do
		:: r < N -> SEND(p, r, ELEC); r++
		:: else -> break
		od;
		r = 0
	fi
}

/* ---- channel-bound parts of the guards (judged after the whole step) ---- */
#define LOWFULL(a,b)  ((b) < (a) && FULL(a,b))
#define HIGHFULL(a,b) ((b) > (a) && FULL(a,b))
#define BC_OVF(p) ORQ(LOWFULL,p)
#define SE_OVF(p) ((p) == N-1 -> ORQ(LOWFULL,p) : ORQ(HIGHFULL,p))
/* deliver(q->p): ELECTION sends OK to q, then (if idle) StartElection; when p
 * is the highest that is a COORDINATOR to every lower process, q included, so
 * chan(p,q) gets two messages in one step. */
#define DELIV_OVF(q,p) \
	((C(q,p)?[ELEC] && \
	  (status[p] != IDLE -> FULL(p,q) : \
	   ((p) == N-1 -> ((alive[q] && len(C(p,q)) + 1 >= K) || BC_OVF(p)) \
	               : (FULL(p,q) || ORQ(HIGHFULL,p))))) \
	 || (C(q,p)?[COORD] && (q) < (p) && status[p] == IDLE && SE_OVF(p)))

/* ---- perfect-detector guards of the timeouts ---- */
#define HIGHALIVE(a,b) ((b) > (a) && alive[b])
#define OKTO(a,b) ((b) != (a) && C(b,a)??[OKM])
#define COORDFROMHIGH(a,b) ((b) > (a) && C(b,a)??[COORD])

/* ---- actions ---- */
#define DETECT(p) :: d_step { (alive[p] && status[p] == IDLE && SUSPECTS(p) && !SE_OVF(p)) -> \
	startElection(p); CHECK }
#define TIMEOUT_OK(p) :: d_step { (alive[p] && status[p] == ELECTING && !ORQ(HIGHALIVE,p) \
	&& !ORQ(OKTO,p) && !BC_OVF(p)) -> becomeCoord(p); CHECK }
#define TIMEOUT_COORD(p) :: d_step { (alive[p] && status[p] == WAITING && !ORQ(HIGHALIVE,p) \
	&& !ORQ(COORDFROMHIGH,p) && !SE_OVF(p)) -> startElection(p); CHECK }
#define CRASH(p) :: d_step { (alive[p] && crashes < MAXCRASH && ORQ(OTHERLIVE,p)) -> \
	alive[p] = false; status[p] = IDLE; elected[p] = 0; EMPTYIN(p); crashes++; CHECK }
#define RESTART(p) :: d_step { (!alive[p] && restarts < MAXRESTART && !SE_OVF(p)) -> \
	alive[p] = true; restarts++; startElection(p); CHECK }
#define DELIVER(q,p) :: d_step { ((q) != (p) && alive[p] && len(C(q,p)) > 0 && !DELIV_OVF(q,p)) -> \
	C(q,p)?m; \
	if \
	:: m == ELEC -> SEND(p, q, OKM); \
		if :: status[p] == IDLE -> startElection(p) :: else -> skip fi \
	:: m == OKM -> \
		if :: status[p] == ELECTING -> status[p] = WAITING :: else -> skip fi \
	:: m == COORD -> \
		if \
		:: (q) > (p) -> elected[p] = (q)+1; status[p] = IDLE \
		:: (q) < (p) && status[p] == IDLE -> startElection(p) \
		:: else -> skip \
		fi \
	fi; \
	m = 0; CHECK }
#define DELIVER_ROW(q) FORQ(DELIVER,q)

active proctype main() {
end:
	do
	FORP(DETECT)
	FORP(TIMEOUT_OK)
	FORP(TIMEOUT_COORD)
#if MAXCRASH > 0
	FORP(CRASH)
#endif
#if MAXRESTART > 0
	FORP(RESTART)
#endif
	FORP(DELIVER_ROW)
	od
}
