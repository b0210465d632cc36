/* iter.h: compile-time iteration over positions 0..N-1 (N <= 8) for the
 * Promela models.  Promela guards must be single expressions, so the
 * "exists q" / "for all q" parts of the guards are unrolled here by cpp;
 * IFk(x) keeps x only when N > k, so no option or term exists for a
 * position >= N (no dead transitions in the generated verifier). */
#ifndef N
#define N 3
#endif
#if N < 2 || N > 8
#error "N must be in 2..8"
#endif
#if N > 2
#define IF2(x) x
#else
#define IF2(x)
#endif
#if N > 3
#define IF3(x) x
#else
#define IF3(x)
#endif
#if N > 4
#define IF4(x) x
#else
#define IF4(x)
#endif
#if N > 5
#define IF5(x) x
#else
#define IF5(x)
#endif
#if N > 6
#define IF6(x) x
#else
#define IF6(x)
#endif
#if N > 7
#define IF7(x) x
#else
#define IF7(x)
#endif

/* statements / do-options, one per position */
#define FORP(M) M(0) M(1) IF2(M(2)) IF3(M(3)) IF4(M(4)) IF5(M(5)) IF6(M(6)) IF7(M(7))
#define FORQ(M,a) M(a,0) M(a,1) IF2(M(a,2)) IF3(M(a,3)) IF4(M(a,4)) IF5(M(a,5)) IF6(M(a,6)) IF7(M(a,7))
/* expressions */
#define ORQ(M,a) (M(a,0) || M(a,1) IF2(|| M(a,2)) IF3(|| M(a,3)) IF4(|| M(a,4)) IF5(|| M(a,5)) IF6(|| M(a,6)) IF7(|| M(a,7)))
#define ORJ(M,a,b) (M(a,b,0) || M(a,b,1) IF2(|| M(a,b,2)) IF3(|| M(a,b,3)) IF4(|| M(a,b,4)) IF5(|| M(a,b,5)) IF6(|| M(a,b,6)) IF7(|| M(a,b,7)))
#define ANDQ(M,a) (M(a,0) && M(a,1) IF2(&& M(a,2)) IF3(&& M(a,3)) IF4(&& M(a,4)) IF5(&& M(a,5)) IF6(&& M(a,6)) IF7(&& M(a,7)))
#define ANDP(M) (M(0) && M(1) IF2(&& M(2)) IF3(&& M(3)) IF4(&& M(4)) IF5(&& M(5)) IF6(&& M(6)) IF7(&& M(7)))
#define SUMP(M) (M(0) + M(1) IF2(+ M(2)) IF3(+ M(3)) IF4(+ M(4)) IF5(+ M(5)) IF6(+ M(6)) IF7(+ M(7)))

/* Scratch variables are `hidden` (outside the state vector).  pan refuses
 * -DBFS with hidden variables, so -DSCRATCH= makes them ordinary globals;
 * every step resets them to 0, so they are constant in every stored state. */
#ifndef SCRATCH
#define SCRATCH hidden
#endif

/* ---- common model (semantics.md section 1) ---- */
#ifndef K
#define K (2*N)            /* --max-queue, default 2N */
#endif
#ifndef IL
#define IL 0               /* --initial-leader: 1 on, 0 off */
#endif
#ifdef CRASHANY
#define MAXCRASH (N-1)     /* --crash-any */
#endif
#ifndef MAXCRASH
#define MAXCRASH 0         /* --crashes */
#endif
#ifndef MAXRESTART
#define MAXRESTART 0       /* --restarts */
#endif

/* chan(a,b): one FIFO per ordered pair, self-pairs included (a model whose
 * processes never send to themselves may define SELFCHAN 0 and its own C()
 * and NCH, leaving the always-empty self-channels out of the state vector).
 * The ID of position p is p+1. */
#ifndef SELFCHAN
#define SELFCHAN 1
#define NCH (N*N)
#define C(a,b) ch[(a)*N+(b)]
#endif
#define SEND(a,b,v) if :: alive[b] -> C(a,b)!v :: else -> skip fi
/* a send a->b would leave more than K messages (a message to a crashed b is lost) */
#define FULL(a,b) (alive[b] && len(C(a,b)) >= K)
/* perfect detector */
#define SUSPECTS(p) (elected[p] == 0 || !alive[elected[p]-1])

/* properties (section 2), asserted on every successor */
#define LEADER(p) (alive[p] && elected[p] == (p)+1)
#define NAMESLIVE(p) (alive[p] && elected[p] != 0 && alive[elected[p]-1])
#define AGREEPAIR(a,b) (!(NAMESLIVE(a) && NAMESLIVE(b)) || elected[a] == elected[b])
#define AGREEROW(a) ANDQ(AGREEPAIR,a)
#ifdef NOINV
#define CHECK skip
#else
#define CHECK assert(SUMP(LEADER) <= 1 && ANDP(AGREEROW))
#endif

/* crash(p): local state initial (caller), every chan(*,p) emptied */
#define EMPTYIN(p) r = 0; do \
	:: r < N && (SELFCHAN || r != (p)) -> do :: len(C(r,p)) > 0 -> C(r,p)?m :: else -> break od; r++ \
	:: r < N && !(SELFCHAN || r != (p)) -> r++ \
	:: else -> break od; r = 0; m = 0
#define OTHERLIVE(a,b) ((b) != (a) && alive[b])
