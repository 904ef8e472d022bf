#define _GNU_SOURCE
#include <poll.h>
#include <sys/timex.h>
#include "gymtimer_system.h"

int gymtimer_ppoll(struct pollfd *fds, unsigned long count, const struct timespec *timeout) {
    return ppoll(fds, (nfds_t)count, timeout, NULL);
}

int gymtimer_clock_status(int *status, long *offset, long *estimated_error, long *maximum_error) {
    struct timex now = { .modes = 0 };
    int state = adjtimex(&now);
    if (state == -1) return -1;
    *status = now.status;
    *offset = now.offset;
    *estimated_error = now.esterror;
    *maximum_error = now.maxerror;
    return state;
}
