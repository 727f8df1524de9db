#define _GNU_SOURCE
#include "CGumboProbe.h"

#include <errno.h>
#include <fcntl.h>
#include <gumbo.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
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

/* Lowers a limit (never raises it past the one inherited). */
static void limit(int resource, rlim_t soft, rlim_t hard) {
    struct rlimit current;
    if (getrlimit(resource, &current) != 0) return;
    if (current.rlim_max != RLIM_INFINITY && hard > current.rlim_max) hard = current.rlim_max;
    if (soft > hard) soft = hard;
    if (current.rlim_cur != RLIM_INFINITY && soft > current.rlim_cur) soft = current.rlim_cur;
    struct rlimit wanted = {soft, hard};
    (void)setrlimit(resource, &wanted);
}

/* Signals that end the child: faults, gumbo's abort, its limits. */
static const int fatal_signals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS, SIGXCPU, SIGXFSZ, SIGALRM};

__attribute__((noreturn))
static void child(const char *text, const size_t *lengths, size_t count, const sigset_t *parent_mask) {
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
    limit(RLIMIT_CORE, 0, 0);
    (void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    rlim_t mapped = mapped_bytes();
    if (mapped > 0) limit(RLIMIT_AS, mapped + CGUMBO_PROBE_MEMORY_BYTES, mapped + CGUMBO_PROBE_MEMORY_BYTES);
    /* SIGXCPU at the soft limit, SIGKILL a second later should it be blocked or caught. */
    limit(RLIMIT_CPU, CGUMBO_PROBE_CPU_SECONDS, CGUMBO_PROBE_CPU_SECONDS + 1);
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

cgumbo_probe_result cgumbo_probe(const char *text, const size_t *lengths, size_t count,
                                 int (*expired)(void *context), void *context) {
    cgumbo_probe_result result = {CGUMBO_PROBE_FAILED, 0};
    sigset_t all, mask;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &mask);
    pid_t pid = fork();
    if (pid == 0) child(text, lengths, count, &mask);
    int fork_error = errno;
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
    if (pid < 0) {
        result.detail = fork_error;
        return result;
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
            result.status = CGUMBO_PROBE_STOPPED;
            return result;
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
        result.detail = wait_error;
        return result;
    }
    if (WIFEXITED(status)) {
        result.status = WEXITSTATUS(status) == 0 ? CGUMBO_PROBE_PARSED : CGUMBO_PROBE_EXITED;
        result.detail = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        result.status = CGUMBO_PROBE_SIGNALLED;
        result.detail = WTERMSIG(status);
    }
    return result;
}
