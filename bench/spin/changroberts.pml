/* changroberts.pml -- Chang-Roberts with participant marks, semantics of
 * /work/shared/semantics.md (sections 1 and 3, "chang-roberts").
 *
 *   spin -a -DN=4 [-DCRASHANY | -DMAXCRASH=c] [-DMAXRESTART=r] [-DIL=1] [-DK=8] changroberts.pml
 *
 * One process, one `do` loop; each semantic action instance is one guarded
 * d_step.  Global state = alive[], participant[], elected[], the N*N channels,
 * the crash/restart counters; scratch variables are `hidden`.
 * Message encoding (one byte): ELECTION(j) = j, ELECTED(j) = ELD + j.
 * Sends go to next(p,cw), the nearest live position after p (ring repair).
 */
#include "iter.h"

#define ELD 16

bool alive[N] = true;
bool part[N];                      /* participant */
#if IL
byte elected[N] = N;
#else
byte elected[N];                   /* 0 is bottom */
#endif
byte crashes;
byte restarts;
chan ch[NCH] = [K] of { byte };
SCRATCH byte m, r, nx;

/* next(p,cw) as an expression (for guards) ... */
#if N > 7
#define NX7(p) (alive[((p)+7)%N] -> ((p)+7)%N : (p))
#else
#define NX7(p) (p)
#endif
#if N > 6
#define NX6(p) (alive[((p)+6)%N] -> ((p)+6)%N : NX7(p))
#else
#define NX6(p) (p)
#endif
#if N > 5
#define NX5(p) (alive[((p)+5)%N] -> ((p)+5)%N : NX6(p))
#else
#define NX5(p) (p)
#endif
#if N > 4
#define NX4(p) (alive[((p)+4)%N] -> ((p)+4)%N : NX5(p))
#else
#define NX4(p) (p)
#endif
#if N > 3
#define NX3(p) (alive[((p)+3)%N] -> ((p)+3)%N : NX4(p))
#else
#define NX3(p) (p)
#endif
#if N > 2
#define NX2(p) (alive[((p)+2)%N] -> ((p)+2)%N : NX3(p))
#else
#define NX2(p) (p)
#endif
#define NXT(p) (alive[((p)+1)%N] -> ((p)+1)%N : NX2(p))
/* ... and as a statement (for bodies) */
#define SENDNEXT(p,v) nx = ((p)+1)%N; \
	do :: nx == (p) || alive[nx] -> break :: else -> nx = (nx+1)%N od; \
	C(p,nx)!v; nx = 0

/* ---- channel bound ---- */
/* deliver(q->p) sends nothing for ELECTED(id), and for ELECTION(j), j < id,
 * at a participant; otherwise one message to next(p,cw).  The pop from
 * chan(q,p) and the send to chan(p,next) hit the same channel only when
 * q = p = next (a lone process). */
#define ELTLT(q,p,b) ((b) < (p) && C(q,p)?[eval((b)+1)])
#define NOSEND(q,p) (C(q,p)?[eval(ELD+(p)+1)] || (part[p] && ORJ(ELTLT,q,p)))
#define DELIV_OVF(q,p) (!NOSEND(q,p) && \
	len(C(p,NXT(p))) - ((q) == (p) && NXT(p) == (p)) >= K)

/* ---- actions ---- */
#define INITIATE(p) :: d_step { (alive[p] && !part[p] && SUSPECTS(p) && len(C(p,NXT(p))) < K) -> \
	part[p] = true; elected[p] = 0; SENDNEXT(p, (p)+1); CHECK }
#define CRASH(p) :: d_step { (alive[p] && crashes < MAXCRASH && ORQ(OTHERLIVE,p)) -> \
	alive[p] = false; part[p] = false; elected[p] = 0; EMPTYIN(p); crashes++; CHECK }
#define RESTART(p) :: d_step { (!alive[p] && restarts < MAXRESTART) -> \
	alive[p] = true; restarts++; CHECK }
#define DELIVER(q,p) :: d_step { (alive[p] && len(C(q,p)) > 0 && !DELIV_OVF(q,p)) -> \
	C(q,p)?m; \
	if \
	:: m < ELD -> \
		if \
		:: m > (p)+1 -> part[p] = true; elected[p] = 0; SENDNEXT(p, m) \
		:: m < (p)+1 && !part[p] -> part[p] = true; elected[p] = 0; SENDNEXT(p, (p)+1) \
		:: m < (p)+1 && part[p] -> skip \
		:: m == (p)+1 -> part[p] = false; elected[p] = (p)+1; SENDNEXT(p, ELD+(p)+1) \
		fi \
	:: else -> \
		part[p] = false; elected[p] = m - ELD; \
		if :: m != ELD+(p)+1 -> SENDNEXT(p, m) :: else -> skip fi \
	fi; \
	m = 0; CHECK }
#define DELIVER_ROW(q) FORQ(DELIVER,q)

active proctype main() {
end:
	do
	FORP(INITIATE)
#if MAXCRASH > 0
	FORP(CRASH)
#endif
#if MAXRESTART > 0
	FORP(RESTART)
#endif
	FORP(DELIVER_ROW)
	od
}
