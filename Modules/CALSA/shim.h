#ifndef GYMTIMER_CALSA_SHIM_H
#define GYMTIMER_CALSA_SHIM_H
#include <alsa/asoundlib.h>

/* alsa-lib's error handler is variadic, which Swift cannot implement: this one drops the
   library's own stderr chatter, since the kiosk reports each failure itself, once. */
static void gymtimer_alsa_silent_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void gymtimer_alsa_quiet(void) {
    snd_lib_error_set_handler(gymtimer_alsa_silent_handler);
}
#endif
