#ifndef GYMTIMER_SYSTEM_H
#define GYMTIMER_SYSTEM_H
/*
 * GymTimer's seam over the few C library calls Swift's Glibc module does not import. Today
 * that is ppoll(2), which glibc declares only under _GNU_SOURCE: poll(2) with a timespec
 * timeout, so the event loop's deadlines are kept to the kernel's precision instead of
 * being rounded up to a millisecond. Only HAL's SystemCall calls it; everything else waits
 * through SystemCall.poll.
 */
#include <poll.h>
#include <time.h>

/// ppoll(2) without a signal mask: blocks until one of `fds` is ready or `timeout` (NULL:
/// none) has elapsed. Returns what ppoll returns (-1 with errno set on failure).
int gymtimer_ppoll(struct pollfd *fds, unsigned long count, const struct timespec *timeout);

#endif
