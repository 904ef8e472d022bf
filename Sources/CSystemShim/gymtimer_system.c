#define _GNU_SOURCE
#include <poll.h>
#include "gymtimer_system.h"

int gymtimer_ppoll(struct pollfd *fds, unsigned long count, const struct timespec *timeout) {
    return ppoll(fds, (nfds_t)count, timeout, NULL);
}
