#ifndef GYMTIMER_CGPIOD_SHIM_H
#define GYMTIMER_CGPIOD_SHIM_H
#include <gpiod.h>

/// 1 when the installed libgpiod is the v1 API (Debian 12, Raspberry Pi OS bookworm),
/// 2 for the v2 API (Raspberry Pi OS trixie). Only v1's header defines GPIOD_LINE_BULK_MAX_LINES.
#ifdef GPIOD_LINE_BULK_MAX_LINES
#define GYMTIMER_GPIOD_API 1
#else
#define GYMTIMER_GPIOD_API 2
#endif
static inline int gymtimer_gpiod_api(void) { return GYMTIMER_GPIOD_API; }
#endif
