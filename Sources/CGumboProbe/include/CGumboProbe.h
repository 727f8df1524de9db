#ifndef CREATIVE_GUMBO_PROBE_H
#define CREATIVE_GUMBO_PROBE_H

#include <stddef.h>

/* What became of a document in the child. */
typedef enum {
    /* A child got through it: gumbo can parse it in this process. */
    CGUMBO_PROBE_PARSED = 0,
    /* The child ended on it by a signal (`detail`): SIGABRT (one of gumbo's assertions), SIGSEGV
     * or SIGBUS (a fault), SIGXCPU (the CPU limit), SIGALRM (the time limit), SIGKILL. */
    CGUMBO_PROBE_SIGNALLED = 1,
    /* The child exited on it with a status other than 0 (`detail`); CGUMBO_PROBE_EXIT_NO_MEMORY
     * when an allocation failed at the memory limit. */
    CGUMBO_PROBE_EXITED = 2,
    /* `expired` answered true: the child was killed and reaped (not a verdict; cgumbo_probe
     * returns 1 then). */
    CGUMBO_PROBE_STOPPED = 3,
    /* No child could be started, or its end not learnt (`detail`: the errno of fork or waitpid). */
    CGUMBO_PROBE_FAILED = 4,
} cgumbo_probe_status;

/* The child's exit status when gumbo asked for memory over the limit. */
#define CGUMBO_PROBE_EXIT_NO_MEMORY 3
/* A child's limits: memory it may map beyond what it had at the fork, CPU seconds, and
 * seconds of wall-clock time (for a child that stops using the CPU; longer, so that a busy
 * machine does not stop a child the CPU limit lets run). The largest documents a bundle may
 * hold need at most 19 MB and 0.3 s of CPU. */
#define CGUMBO_PROBE_MEMORY_BYTES (256u << 20)
#define CGUMBO_PROBE_CPU_SECONDS 2
#define CGUMBO_PROBE_WALL_SECONDS 4
/* How long the parent waits before it first asks whether to stop: more than a bundle's
 * documents ever take on a busy machine, so that a check asks its deadline at the same points
 * whatever the machine's load (and at most this late when a child runs long). */
#define CGUMBO_PROBE_FIRST_ASK_MS 1000

typedef struct {
    cgumbo_probe_status status;
    int detail;
} cgumbo_probe_result;

/* Parses `count` documents with gumbo in a child process, to learn which of them gumbo can
 * parse without taking the process down (Debian's gumbo keeps its assertions, and some
 * malformed HTML fails one: abort). The documents lie one after another in `text`, each
 * `lengths[i]` bytes followed by one NUL byte (not counted), as the caller parses them.
 *
 * One child parses them in turn, counting those it is done with in a page shared with the
 * parent. When it ends otherwise than by exiting 0, the document it was on gets how it ended
 * in `results`, and a new child goes on from the next; every document gets a verdict
 * (`results[i]`, CGUMBO_PROBE_PARSED for those parsed) with one child more for each document
 * a child ended on. With each document, the child does what the caller will do and nothing
 * else: it parses it with max_errors 0, gives every element's tag name
 * (gumbo_normalized_tagname, or gumbo_tag_from_original_text for unknown tags, both of which
 * assert) and destroys the output. It writes nothing (standard output and error go to
 * /dev/null), dumps no core, runs none of the parent's signal handlers, may map
 * CGUMBO_PROBE_MEMORY_BYTES more than it had at the fork, and has CGUMBO_PROBE_CPU_SECONDS of
 * CPU and CGUMBO_PROBE_WALL_SECONDS of time (for all its documents: a bundle's add up to at
 * most 2 MiB, which gumbo parses in well under a second).
 *
 * Safe to call from any thread, from several at once: it holds no lock, the signals but
 * SIGCHLD are blocked in the calling thread around fork (so none reaches a parent's handler in
 * the child), and glibc's fork leaves malloc, stdio and the dynamic loader usable in the child.
 * The parent waits for its own children only (never for any other). Each child's end sends the
 * process SIGCHLD, as any child's does: at its default action (as in the CLI and the service)
 * the kernel drops it; a process that catches SIGCHLD gets one for each child.
 *
 * Once a child has run CGUMBO_PROBE_FIRST_ASK_MS the parent asks `expired(context)` (may be
 * NULL) every 10 ms at most, and it asks before each child after the first; when that answers
 * non-zero the child is killed and the function returns 1, the results incomplete. A child
 * ends in about a millisecond, so the deadline is asked only of one that does not, or after a
 * document that ended a child. Returns 0 when every document has its verdict. */
int cgumbo_probe(const char *text, const size_t *lengths, size_t count, cgumbo_probe_result *results,
                 int (*expired)(void *context), void *context);

#endif
