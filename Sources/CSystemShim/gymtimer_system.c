#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <errno.h>
#include <sys/timerfd.h>
#include <sys/timex.h>
#include <unistd.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
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

/* Arms `fd` for an absolute instant about 30 years from now (a step wakes it, time never). */
static int gymtimer_clock_step_arm(int fd) {
    struct timespec now;
    if (clock_gettime(CLOCK_REALTIME, &now) == -1) return -1;
    struct itimerspec spec = { .it_value = { .tv_sec = now.tv_sec + (time_t)30 * 365 * 86400 } };
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL);
}

int gymtimer_clock_step_fd(void) {
    int fd = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
    if (fd == -1) return -1;
    if (gymtimer_clock_step_arm(fd) == -1) {
        close(fd);
        return -1;
    }
    return fd;
}

int gymtimer_clock_step_rearm(int fd) {
    uint64_t expirations;
    /* ECANCELED after a step, EAGAIN if nothing: either way the timer is armed again. */
    (void)read(fd, &expirations, sizeof expirations);
    return gymtimer_clock_step_arm(fd);
}

int gymtimer_open_pty(char *path, unsigned long length) {
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0) return -1;
    if (grantpt(master) != 0 || unlockpt(master) != 0 || ptsname_r(master, path, length) != 0) {
        int saved = errno;
        close(master);
        errno = saved;
        return -1;
    }
    return master;
}

int gymtimer_name_thread(const char *name) {
    char shortened[16];
    unsigned long i = 0;
    for (; i < sizeof shortened - 1 && name[i] != 0; i++) shortened[i] = name[i];
    shortened[i] = 0;
    return pthread_setname_np(pthread_self(), shortened);
}

const char *gymtimer_errno_name(int code) {
    return strerrorname_np(code);
}
