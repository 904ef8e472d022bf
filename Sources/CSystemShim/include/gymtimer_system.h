#ifndef GYMTIMER_SYSTEM_H
#define GYMTIMER_SYSTEM_H
/*
 * GymTimer's seam over the few C library calls Swift's Glibc module does not import. Today
 * that is ppoll(2), which glibc declares only under _GNU_SOURCE: poll(2) with a timespec
 * timeout, so the event loop's deadlines are kept to the kernel's precision instead of
 * being rounded up to a millisecond; and adjtimex(2), whose struct timex the module leaves
 * out, read-only, for the self-test's line on the clock's synchronisation; and timerfd(2),
 * whose header the module leaves out, to hear of a wall-clock step; and a pseudo-terminal for
 * a simulated serial device; and an errno value's C name (strerrorname_np). Only HAL's
 * SystemCall (and Errno+Text, for the name) calls them; everything else waits through SystemCall.poll.
 */
#include <poll.h>
#include <time.h>

/// ppoll(2) without a signal mask: blocks until one of `fds` is ready or `timeout` (NULL:
/// none) has elapsed. Returns what ppoll returns (-1 with errno set on failure).
int gymtimer_ppoll(struct pollfd *fds, unsigned long count, const struct timespec *timeout);

/// adjtimex(2) with no change (modes 0): the kernel's clock state, its status flags, the last
/// offset (ns with STA_NANO, else µs) and the estimated and maximum error (µs). Returns the
/// clock state (TIME_OK … TIME_ERROR) or -1 with errno set.
int gymtimer_clock_status(int *status, long *offset, long *estimated_error, long *maximum_error);

/// A timerfd(2) on CLOCK_REALTIME (non-blocking, close-on-exec) armed for an absolute instant
/// years away with TFD_TIMER_CANCEL_ON_SET: it becomes readable when the wall clock is set
/// (stepped), never by itself. Returns the descriptor, or -1 with errno set.
int gymtimer_clock_step_fd(void);

/// Reads `fd` (a step was seen: read fails with ECANCELED) and arms it again for the next
/// step. Returns 0, or -1 with errno set.
int gymtimer_clock_step_rearm(int fd);

/// A new pseudo-terminal (posix_openpt, grantpt, unlockpt: declared only under _XOPEN_SOURCE):
/// its master side's descriptor (read-write, close-on-exec), its slave's path in `path` (at most
/// `length` bytes with the NUL). Returns -1 with errno set on failure. For the simulated chips
/// that stand behind a serial port (the PN532 reader's twin).
int gymtimer_open_pty(char *path, unsigned long length);

/// Names the calling thread as the system shows it (top -H, /proc/PID/task/TID/comm): at most
/// 15 bytes are kept. Returns 0, or an errno value.
int gymtimer_name_thread(const char *name);

/// The C name of errno value `code` ("EIO"; strerrorname_np, glibc 2.32+), or NULL for a value
/// glibc does not name. For HAL's device fault lines, which show it after strerror's words.
const char *gymtimer_errno_name(int code);

#endif
