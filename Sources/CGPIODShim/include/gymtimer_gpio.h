#ifndef GYMTIMER_GPIO_H
#define GYMTIMER_GPIO_H
/*
 * GymTimer's one seam over libgpiod: the few operations the kiosk needs (open a chip, read its
 * line names, request a line as an edge-reporting input, an output or an open-drain line, read
 * and write it, read its edge events with their CLOCK_MONOTONIC timestamps, name who holds a
 * busy line), implemented in gymtimer_gpio.c over whichever libgpiod the build found:
 * v1 (libgpiod 1.6: Debian 12, Raspberry Pi OS bookworm) or v2 (libgpiod 2.x: Debian 13,
 * Raspberry Pi OS trixie). The choice is made from the installed <gpiod.h> at compile time, so
 * a plain `swift build` works on both and nothing above this header knows which API it is.
 *
 * Errors follow the C convention: NULL or -1 with errno set (ENOENT, EACCES, EBUSY, ...), so the
 * Swift side maps them to its typed errors the same way for both APIs.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// An opened GPIO chip (/dev/gpiochipN).
struct gymtimer_gpio_chip;
/// One requested line. Release it before closing its chip.
struct gymtimer_gpio_line;

/// How a line is requested.
enum gymtimer_gpio_mode {
    /// Input reporting both edges (rising and falling) with kernel timestamps.
    GYMTIMER_GPIO_INPUT_EDGES = 0,
    /// Push-pull output.
    GYMTIMER_GPIO_OUTPUT = 1,
    /// Open-drain output: 1 releases the line, 0 pulls it low.
    GYMTIMER_GPIO_OPEN_DRAIN = 2,
};

/// The internal resistor of an input.
enum gymtimer_gpio_bias {
    GYMTIMER_GPIO_BIAS_AS_IS = 0,
    GYMTIMER_GPIO_BIAS_PULL_UP = 1,
    GYMTIMER_GPIO_BIAS_PULL_DOWN = 2,
    GYMTIMER_GPIO_BIAS_DISABLED = 3,
};

/// One edge on a requested input.
struct gymtimer_gpio_event {
    /// When the kernel saw it, on CLOCK_MONOTONIC, in nanoseconds.
    uint64_t timestamp_ns;
    /// true for a rising edge (the line became active), false for a falling one.
    bool rising;
};

/// 1 when built against libgpiod v1, 2 when built against v2.
int gymtimer_gpio_api(void);
/// The linked libgpiod's own version string ("1.6.3", "2.2.1").
const char *gymtimer_gpio_library_version(void);

/// Opens the chip at `path`; NULL with errno: ENOENT (nothing there), EACCES (not allowed),
/// ENODEV (a file, directory or device that is no GPIO chip), or another code.
struct gymtimer_gpio_chip *gymtimer_gpio_chip_open(const char *path);
/// Closes the chip. Its lines must have been released.
void gymtimer_gpio_chip_close(struct gymtimer_gpio_chip *chip);
/// How many lines the chip has.
unsigned int gymtimer_gpio_chip_num_lines(struct gymtimer_gpio_chip *chip);
/// Copies line `offset`'s name into `buffer` (NUL-terminated, truncated to `size`).
/// Returns 1 when the line has a name, 0 when it has none, -1 with errno on failure.
int gymtimer_gpio_line_name(struct gymtimer_gpio_chip *chip, unsigned int offset, char *buffer, size_t size);
/// Copies the consumer holding line `offset` (as `gpioinfo` shows it) into `buffer`.
/// Returns 1 when the line is in use and its holder named itself, 0 otherwise, -1 on failure.
int gymtimer_gpio_line_consumer(struct gymtimer_gpio_chip *chip, unsigned int offset, char *buffer, size_t size);

/// Requests line `offset` for `consumer`. `bias` applies to inputs; `initial` is the starting
/// logical level of outputs (open-drain lines start released whatever it says); `active_low`
/// makes the kernel invert the level both ways. NULL with errno (EBUSY: another holder).
struct gymtimer_gpio_line *gymtimer_gpio_request(
    struct gymtimer_gpio_chip *chip, unsigned int offset, const char *consumer,
    enum gymtimer_gpio_mode mode, enum gymtimer_gpio_bias bias, bool active_low, bool initial);
/// Gives the line back to the kernel and frees it.
void gymtimer_gpio_release(struct gymtimer_gpio_line *line);
/// The logical level: 1 or 0, or -1 with errno.
int gymtimer_gpio_get(struct gymtimer_gpio_line *line);
/// Sets the logical level; 0, or -1 with errno.
int gymtimer_gpio_set(struct gymtimer_gpio_line *line, bool active);
/// The descriptor poll(2) reports readable when edge events are pending (inputs only).
int gymtimer_gpio_event_fd(struct gymtimer_gpio_line *line);
/// Reads up to `max` pending edge events into `events` (blocking if none is pending: poll first).
/// Returns how many, or -1 with errno.
int gymtimer_gpio_read_events(struct gymtimer_gpio_line *line, struct gymtimer_gpio_event *events, unsigned int max);

#endif
