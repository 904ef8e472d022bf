#ifndef GYMTIMER_CGPIOD_SHIM_H
#define GYMTIMER_CGPIOD_SHIM_H
/// The installed libgpiod (found with pkg-config: its include path and -lgpiod). No Swift code
/// imports this module: Sources/CGPIODShim is the one place that calls libgpiod, over v1 or v2.
#include <gpiod.h>
#endif
