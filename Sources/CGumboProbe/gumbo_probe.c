#define _GNU_SOURCE
#include "CGumboProbe.h"

#include <errno.h>
#include <fcntl.h>
#include <gumbo.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- The child: only async-signal-safe calls, malloc (which glibc's fork keeps usable) and gumbo. */

static void *allocate(void *userdata, size_t size) {
    (void)userdata;
    void *block = malloc(size);
    if (block == NULL) _exit(CGUMBO_PROBE_EXIT_NO_MEMORY);
    return block;
}

static void deallocate(void *userdata, void *block) {
    (void)userdata;
    free(block);
}

static int is_element(const GumboNode *node) {
    return node->type == GUMBO_NODE_ELEMENT || node->type == GUMBO_NODE_TEMPLATE;
}

/* Every element's tag name, as the caller reads them (the two functions assert). The walk
 * follows the parent links, so a deep tree needs no stack. */
static void read_tag_names(GumboNode *root) {
    GumboNode *node = root;
    while (node != NULL) {
        if (is_element(node)) {
            const GumboElement *element = &node->v.element;
            if (element->tag != GUMBO_TAG_UNKNOWN) {
                (void)gumbo_normalized_tagname(element->tag);
            } else {
                GumboStringPiece piece = element->original_tag;
                gumbo_tag_from_original_text(&piece);
            }
            if (element->children.length > 0) {
                node = (GumboNode *)element->children.data[0];
                continue;
            }
        }
        /* The next sibling of the node or of its nearest ancestor that has one. */
        while (node != root) {
            GumboNode *parent = node->parent;
            size_t next = node->index_within_parent + 1;
            if (parent == NULL || !is_element(parent)) return;
            if (next < parent->v.element.children.length) {
                node = (GumboNode *)parent->v.element.children.data[next];
                break;
            }
            node = parent;
        }
        if (node == root) return;
    }
}

/* The child's address space now, from /proc/self/statm (0 when unreadable). */
static rlim_t mapped_bytes(void) {
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char text[64];
    ssize_t length = read(fd, text, sizeof text);
    close(fd);
    rlim_t pages = 0;
    for (ssize_t index = 0; index < length && text[index] >= '0' && text[index] <= '9'; index++) {
        pages = pages * 10 + (rlim_t)(text[index] - '0');
    }
    return pages * (rlim_t)getpagesize();
}

/* Sets a limit, within the one the child inherited (read once at its start). */
static void limit(int resource, rlim_t soft, rlim_t hard, const struct rlimit *inherited) {
    if (inherited->rlim_max != RLIM_INFINITY && hard > inherited->rlim_max) hard = inherited->rlim_max;
    if (inherited->rlim_cur != RLIM_INFINITY && soft > inherited->rlim_cur) soft = inherited->rlim_cur;
    if (soft > hard) soft = hard;
    struct rlimit wanted = {soft, hard};
    (void)setrlimit(resource, &wanted);
}

/* Signals that end the child: faults, gumbo's abort, its limits. */
static const int fatal_signals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS, SIGXCPU, SIGXFSZ, SIGALRM};

/* Parses the documents one after another, counting in `*parsed` those it is done with. */
__attribute__((noreturn))
static void child(const char *text, const size_t *lengths, size_t count, volatile size_t *parsed,
                  const sigset_t *parent_mask) {
    /* No handler of the parent runs here (the Swift runtime's crash handler among them): a
     * caught signal gets its default action; ignored ones stay ignored, faults are fatal. */
    for (int number = 1; number < NSIG; number++) {
        struct sigaction action;
        if (sigaction(number, NULL, &action) != 0) continue;
        if ((action.sa_flags & SA_SIGINFO) || action.sa_handler != SIG_IGN) {
            action.sa_handler = SIG_DFL;
            action.sa_flags = 0;
            (void)sigaction(number, &action, NULL);
        }
    }
    sigset_t mask = *parent_mask;
    for (size_t index = 0; index < sizeof fatal_signals / sizeof fatal_signals[0]; index++) {
        struct sigaction action = {0};
        action.sa_handler = SIG_DFL;
        (void)sigaction(fatal_signals[index], &action, NULL);
        sigdelset(&mask, fatal_signals[index]);
    }
    (void)sigprocmask(SIG_SETMASK, &mask, NULL);

    /* No output: a failed assertion prints to standard error. */
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) {
        (void)dup2(null, STDOUT_FILENO);
        (void)dup2(null, STDERR_FILENO);
        close(null);
    } else {
        close(STDOUT_FILENO);
        close(STDERR_FILENO);
    }

    /* No core file, and no core handed to a core-dump handler (not dumpable). */
    struct rlimit core, space, cpu;
    if (getrlimit(RLIMIT_CORE, &core) == 0) limit(RLIMIT_CORE, 0, 0, &core);
    (void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    rlim_t mapped = mapped_bytes();
    if (mapped > 0 && getrlimit(RLIMIT_AS, &space) == 0) {
        limit(RLIMIT_AS, mapped + CGUMBO_PROBE_MEMORY_BYTES, mapped + CGUMBO_PROBE_MEMORY_BYTES, &space);
    }
    /* SIGXCPU at the soft limit, SIGKILL a second later should it not end the child. */
    if (getrlimit(RLIMIT_CPU, &cpu) == 0) limit(RLIMIT_CPU, CGUMBO_PROBE_CPU_SECONDS, CGUMBO_PROBE_CPU_SECONDS + 1, &cpu);
    (void)alarm(CGUMBO_PROBE_WALL_SECONDS);

    GumboOptions options = kGumboDefaultOptions;
    options.max_errors = 0;
    options.allocator = allocate;
    options.deallocator = deallocate;
    const char *document = text;
    for (size_t index = 0; index < count; index++) {
        GumboOutput *output = gumbo_parse_with_options(&options, document, lengths[index]);
        if (output == NULL) _exit(1);
        read_tag_names(output->root);
        gumbo_destroy_output(&options, output);
        *parsed = index + 1;
        document += lengths[index] + 1;
    }
    _exit(0);
}

/* ---- The parent. */

static void sleep_microseconds(long microseconds) {
    struct timespec pause = {microseconds / 1000000, (microseconds % 1000000) * 1000};
    while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {}
}

static long milliseconds_since(const struct timespec *start) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long)(now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

/* Reaps the child, killing it first when `kill_first`. Returns waitpid's answer. */
static pid_t reap(pid_t pid, int *status, int kill_first) {
    if (kill_first) (void)kill(pid, SIGKILL);
    pid_t done;
    do { done = waitpid(pid, status, 0); } while (done < 0 && errno == EINTR);
    return done;
}

/* One child for the documents: how it ended (`*ended`), with `*parsed` counting those it was
 * done with. Returns 1 when `expired` stopped it, else 0. */
static int probe_in_child(const char *text, const size_t *lengths, size_t count, volatile size_t *parsed,
                          int (*expired)(void *context), void *context, cgumbo_probe_result *ended) {
    ended->status = CGUMBO_PROBE_FAILED;
    ended->detail = 0;
    *parsed = 0;
    /* Every signal blocked across fork, so that none runs a parent's handler in the child
     * before the child resets them; but SIGCHLD: should the child end while this thread still
     * blocks it, the kernel would not drop it (ignored by default) but leave it pending for
     * another thread, whose socket calls with a timeout, poll and sleeps would fail with EINTR.
     * The child has no children, so no SIGCHLD comes to it. */
    sigset_t all, mask;
    sigfillset(&all);
    sigdelset(&all, SIGCHLD);
    pthread_sigmask(SIG_SETMASK, &all, &mask);
    pid_t pid = fork();
    if (pid == 0) child(text, lengths, count, parsed, &mask);
    int fork_error = errno;
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
    if (pid < 0) {
        ended->detail = fork_error;
        return 0;
    }

    /* A pidfd wakes the wait when the child ends (Linux 5.3); without one, the wait polls. */
    int pidfd = -1;
#ifdef SYS_pidfd_open
    pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
#endif
    long pause = 50;
    int status = 0;
    pid_t done;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        done = waitpid(pid, &status, WNOHANG);
        if (done != 0 && !(done < 0 && errno == EINTR)) break;
        if (expired != NULL && milliseconds_since(&start) >= CGUMBO_PROBE_FIRST_ASK_MS && expired(context)) {
            reap(pid, &status, 1);
            if (pidfd >= 0) close(pidfd);
            ended->status = CGUMBO_PROBE_STOPPED;
            return 1;
        }
        if (pidfd >= 0) {
            struct pollfd ready = {pidfd, POLLIN, 0};
            (void)poll(&ready, 1, 10);
        } else {
            sleep_microseconds(pause);
            if (pause < 10000) pause *= 2;
        }
    }
    int wait_error = errno;
    if (pidfd >= 0) close(pidfd);
    if (done < 0) {
        /* Not ours to wait for (SIGCHLD ignored: the kernel reaped it): its end is unknown. */
        ended->detail = wait_error;
        return 0;
    }
    if (WIFEXITED(status)) {
        ended->status = WEXITSTATUS(status) == 0 ? CGUMBO_PROBE_PARSED : CGUMBO_PROBE_EXITED;
        ended->detail = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        ended->status = CGUMBO_PROBE_SIGNALLED;
        ended->detail = WTERMSIG(status);
    }
    return 0;
}

int cgumbo_probe(const char *text, const size_t *lengths, size_t count, cgumbo_probe_result *results,
                 int (*expired)(void *context), void *context) {
    /* The child counts the documents it is done with in a page it shares with this process. */
    volatile size_t *parsed = mmap(NULL, sizeof *parsed, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (parsed == MAP_FAILED) {
        cgumbo_probe_result failed = {CGUMBO_PROBE_FAILED, errno};
        for (size_t index = 0; index < count; index++) results[index] = failed;
        return 0;
    }
    int stopped = 0;
    size_t first = 0;
    while (first < count) {
        /* After a document that ended a child, the deadline is asked before the next child. */
        if (first > 0 && expired != NULL && expired(context)) {
            stopped = 1;
            break;
        }
        cgumbo_probe_result ended;
        if (probe_in_child(text, lengths + first, count - first, parsed, expired, context, &ended)) {
            stopped = 1;
            break;
        }
        size_t done = *parsed < count - first ? *parsed : count - first;
        for (size_t index = first; index < first + done; index++) {
            results[index].status = CGUMBO_PROBE_PARSED;
            results[index].detail = 0;
            text += lengths[index] + 1;
        }
        first += done;
        if (first == count) break;
        if (ended.status == CGUMBO_PROBE_FAILED) {
            /* No child: none of the documents left has a verdict. */
            for (size_t index = first; index < count; index++) results[index] = ended;
            break;
        }
        if (ended.status == CGUMBO_PROBE_PARSED) {
            /* Exited 0 before it was done (cannot happen): not a verdict for the document. */
            ended.status = CGUMBO_PROBE_EXITED;
        }
        /* The document the child ended on; the next child starts after it. */
        results[first] = ended;
        text += lengths[first] + 1;
        first += 1;
    }
    munmap((void *)parsed, sizeof *parsed);
    return stopped;
}
