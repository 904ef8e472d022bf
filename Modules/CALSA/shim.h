#ifndef GYMTIMER_CALSA_SHIM_H
#define GYMTIMER_CALSA_SHIM_H
#include <alsa/asoundlib.h>
#endif
