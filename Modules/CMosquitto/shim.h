#ifndef GYMTIMER_CMOSQUITTO_SHIM_H
#define GYMTIMER_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#endif
