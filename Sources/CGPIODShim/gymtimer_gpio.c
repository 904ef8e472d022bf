/*
 * gymtimer_gpio.h over libgpiod v1 (1.6) or v2 (2.x), whichever <gpiod.h> the build found.
 * Only v1's header defines GPIOD_LINE_BULK_MAX_LINES; v2 removed the bulk API with it.
 * Both halves keep errno as libgpiod (or the kernel) set it, so callers see the same codes.
 */
#include "gymtimer_gpio.h"

#include <errno.h>
#include <gpiod.h>
#include <stdlib.h>
#include <string.h>

#ifdef GPIOD_LINE_BULK_MAX_LINES
#define GYMTIMER_GPIOD_API 1
#else
#define GYMTIMER_GPIOD_API 2
#endif

/// Copies `text` into `buffer`, truncated and NUL-terminated; 1 if there was text, else 0.
static int copy_text(const char *text, char *buffer, size_t size) {
    if (size > 0) buffer[0] = '\0';
    if (text == NULL || text[0] == '\0' || size == 0) return 0;
    strncpy(buffer, text, size - 1);
    buffer[size - 1] = '\0';
    return 1;
}

int gymtimer_gpio_api(void) { return GYMTIMER_GPIOD_API; }

struct gymtimer_gpio_chip {
    struct gpiod_chip *chip;
};

struct gymtimer_gpio_chip *gymtimer_gpio_chip_open(const char *path) {
    struct gymtimer_gpio_chip *chip = calloc(1, sizeof(*chip));
    if (chip == NULL) return NULL;
    chip->chip = gpiod_chip_open(path);
    if (chip->chip == NULL) {
        int saved = errno;
        /* Something that exists but is no GPIO chip: v1 and v2 check it in different orders and
         * say ENOTTY, EINVAL, EISDIR or ENODEV for it; callers get ENODEV from both. */
        if (saved == ENOTTY || saved == EINVAL || saved == EISDIR) saved = ENODEV;
        free(chip);
        errno = saved;
        return NULL;
    }
    return chip;
}

void gymtimer_gpio_chip_close(struct gymtimer_gpio_chip *chip) {
    if (chip == NULL) return;
    gpiod_chip_close(chip->chip);
    free(chip);
}

#if GYMTIMER_GPIOD_API == 1
/* ---- libgpiod v1: lines belong to the chip; a request is made and released on the line. ---- */

struct gymtimer_gpio_line {
    struct gpiod_line *line;
};

const char *gymtimer_gpio_library_version(void) { return gpiod_version_string(); }

unsigned int gymtimer_gpio_chip_num_lines(struct gymtimer_gpio_chip *chip) {
    return gpiod_chip_num_lines(chip->chip);
}

int gymtimer_gpio_line_name(struct gymtimer_gpio_chip *chip, unsigned int offset, char *buffer, size_t size) {
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (line == NULL) return -1;
    return copy_text(gpiod_line_name(line), buffer, size);
}

int gymtimer_gpio_line_consumer(struct gymtimer_gpio_chip *chip, unsigned int offset, char *buffer, size_t size) {
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (line == NULL || gpiod_line_update(line) != 0) return -1;
    return gpiod_line_is_used(line) ? copy_text(gpiod_line_consumer(line), buffer, size) : copy_text(NULL, buffer, size);
}

struct gymtimer_gpio_line *gymtimer_gpio_request(
    struct gymtimer_gpio_chip *chip, unsigned int offset, const char *consumer,
    enum gymtimer_gpio_mode mode, enum gymtimer_gpio_bias bias, bool active_low, bool initial) {
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (line == NULL) return NULL;
    struct gpiod_line_request_config config = { .consumer = consumer, .flags = 0 };
    int value = initial ? 1 : 0;
    if (active_low) config.flags |= GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW;
    switch (mode) {
    case GYMTIMER_GPIO_INPUT_EDGES:
        config.request_type = GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES;
        switch (bias) {
        case GYMTIMER_GPIO_BIAS_PULL_UP: config.flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP; break;
        case GYMTIMER_GPIO_BIAS_PULL_DOWN: config.flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN; break;
        case GYMTIMER_GPIO_BIAS_DISABLED: config.flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE; break;
        case GYMTIMER_GPIO_BIAS_AS_IS: break;
        }
        break;
    case GYMTIMER_GPIO_OUTPUT:
        config.request_type = GPIOD_LINE_REQUEST_DIRECTION_OUTPUT;
        break;
    case GYMTIMER_GPIO_OPEN_DRAIN:
        config.request_type = GPIOD_LINE_REQUEST_DIRECTION_OUTPUT;
        config.flags |= GPIOD_LINE_REQUEST_FLAG_OPEN_DRAIN;
        value = 1;
        break;
    }
    if (gpiod_line_request(line, &config, value) != 0) return NULL;
    struct gymtimer_gpio_line *handle = calloc(1, sizeof(*handle));
    if (handle == NULL) {
        gpiod_line_release(line);
        errno = ENOMEM;
        return NULL;
    }
    handle->line = line;
    return handle;
}

void gymtimer_gpio_release(struct gymtimer_gpio_line *line) {
    if (line == NULL) return;
    gpiod_line_release(line->line);
    free(line);
}

int gymtimer_gpio_get(struct gymtimer_gpio_line *line) { return gpiod_line_get_value(line->line); }

int gymtimer_gpio_set(struct gymtimer_gpio_line *line, bool active) {
    return gpiod_line_set_value(line->line, active ? 1 : 0);
}

int gymtimer_gpio_event_fd(struct gymtimer_gpio_line *line) { return gpiod_line_event_get_fd(line->line); }

int gymtimer_gpio_read_events(struct gymtimer_gpio_line *line, struct gymtimer_gpio_event *events, unsigned int max) {
    struct gpiod_line_event raw[16];
    if (max > 16) max = 16;
    int count = gpiod_line_event_read_fd_multiple(gpiod_line_event_get_fd(line->line), raw, max);
    for (int i = 0; i < count; i++) {
        events[i].timestamp_ns = (uint64_t)raw[i].ts.tv_sec * 1000000000u + (uint64_t)raw[i].ts.tv_nsec;
        events[i].rising = raw[i].event_type == GPIOD_LINE_EVENT_RISING_EDGE;
    }
    return count;
}

#else
/* ---- libgpiod v2: a request is its own object (and descriptor), built from settings. ---- */

struct gymtimer_gpio_line {
    struct gpiod_line_request *request;
    unsigned int offset;
    struct gpiod_edge_event_buffer *events;
};

const char *gymtimer_gpio_library_version(void) { return gpiod_api_version(); }

unsigned int gymtimer_gpio_chip_num_lines(struct gymtimer_gpio_chip *chip) {
    struct gpiod_chip_info *info = gpiod_chip_get_info(chip->chip);
    if (info == NULL) return 0;
    unsigned int count = (unsigned int)gpiod_chip_info_get_num_lines(info);
    gpiod_chip_info_free(info);
    return count;
}

int gymtimer_gpio_line_name(struct gymtimer_gpio_chip *chip, unsigned int offset, char *buffer, size_t size) {
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip->chip, offset);
    if (info == NULL) return -1;
    int named = copy_text(gpiod_line_info_get_name(info), buffer, size);
    gpiod_line_info_free(info);
    return named;
}

int gymtimer_gpio_line_consumer(struct gymtimer_gpio_chip *chip, unsigned int offset, char *buffer, size_t size) {
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip->chip, offset);
    if (info == NULL) return -1;
    int named = gpiod_line_info_is_used(info) ? copy_text(gpiod_line_info_get_consumer(info), buffer, size)
                                              : copy_text(NULL, buffer, size);
    gpiod_line_info_free(info);
    return named;
}

/// The settings of one line for `mode`; NULL with errno.
static struct gpiod_line_settings *line_settings(
    enum gymtimer_gpio_mode mode, enum gymtimer_gpio_bias bias, bool active_low, bool initial) {
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (settings == NULL) return NULL;
    int failed = 0;
    gpiod_line_settings_set_active_low(settings, active_low);
    switch (mode) {
    case GYMTIMER_GPIO_INPUT_EDGES: {
        enum gpiod_line_bias kind = GPIOD_LINE_BIAS_AS_IS;
        if (bias == GYMTIMER_GPIO_BIAS_PULL_UP) kind = GPIOD_LINE_BIAS_PULL_UP;
        if (bias == GYMTIMER_GPIO_BIAS_PULL_DOWN) kind = GPIOD_LINE_BIAS_PULL_DOWN;
        if (bias == GYMTIMER_GPIO_BIAS_DISABLED) kind = GPIOD_LINE_BIAS_DISABLED;
        failed |= gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT);
        failed |= gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH);
        failed |= gpiod_line_settings_set_bias(settings, kind);
        failed |= gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC);
        break;
    }
    case GYMTIMER_GPIO_OUTPUT:
        failed |= gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT);
        failed |= gpiod_line_settings_set_output_value(settings, initial ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
        break;
    case GYMTIMER_GPIO_OPEN_DRAIN:
        failed |= gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT);
        failed |= gpiod_line_settings_set_drive(settings, GPIOD_LINE_DRIVE_OPEN_DRAIN);
        failed |= gpiod_line_settings_set_output_value(settings, GPIOD_LINE_VALUE_ACTIVE);
        break;
    }
    if (failed) {
        gpiod_line_settings_free(settings);
        errno = EINVAL;
        return NULL;
    }
    return settings;
}

struct gymtimer_gpio_line *gymtimer_gpio_request(
    struct gymtimer_gpio_chip *chip, unsigned int offset, const char *consumer,
    enum gymtimer_gpio_mode mode, enum gymtimer_gpio_bias bias, bool active_low, bool initial) {
    struct gymtimer_gpio_line *line = calloc(1, sizeof(*line));
    struct gpiod_line_settings *settings = line_settings(mode, bias, active_low, initial);
    struct gpiod_line_config *config = gpiod_line_config_new();
    struct gpiod_request_config *request = gpiod_request_config_new();
    int saved = ENOMEM;
    if (line != NULL && settings != NULL && config != NULL && request != NULL) {
        line->offset = offset;
        gpiod_request_config_set_consumer(request, consumer);
        if (gpiod_line_config_add_line_settings(config, &offset, 1, settings) == 0) {
            line->request = gpiod_chip_request_lines(chip->chip, request, config);
        }
        saved = errno;
        if (line->request != NULL && mode == GYMTIMER_GPIO_INPUT_EDGES) {
            line->events = gpiod_edge_event_buffer_new(16);
            saved = errno;
        }
    } else if (settings == NULL && line != NULL) {
        saved = errno;
    }
    gpiod_request_config_free(request);
    gpiod_line_config_free(config);
    gpiod_line_settings_free(settings);
    if (line == NULL || line->request == NULL || (mode == GYMTIMER_GPIO_INPUT_EDGES && line->events == NULL)) {
        gymtimer_gpio_release(line);
        errno = saved;
        return NULL;
    }
    return line;
}

void gymtimer_gpio_release(struct gymtimer_gpio_line *line) {
    if (line == NULL) return;
    if (line->request != NULL) gpiod_line_request_release(line->request);
    gpiod_edge_event_buffer_free(line->events);
    free(line);
}

int gymtimer_gpio_get(struct gymtimer_gpio_line *line) {
    enum gpiod_line_value value = gpiod_line_request_get_value(line->request, line->offset);
    return value == GPIOD_LINE_VALUE_ERROR ? -1 : (value == GPIOD_LINE_VALUE_ACTIVE ? 1 : 0);
}

int gymtimer_gpio_set(struct gymtimer_gpio_line *line, bool active) {
    return gpiod_line_request_set_value(line->request, line->offset,
                                        active ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
}

int gymtimer_gpio_event_fd(struct gymtimer_gpio_line *line) { return gpiod_line_request_get_fd(line->request); }

int gymtimer_gpio_read_events(struct gymtimer_gpio_line *line, struct gymtimer_gpio_event *events, unsigned int max) {
    if (line->events == NULL) {
        errno = EINVAL;
        return -1;
    }
    if (max > 16) max = 16;
    int count = gpiod_line_request_read_edge_events(line->request, line->events, max);
    for (int i = 0; i < count; i++) {
        struct gpiod_edge_event *event = gpiod_edge_event_buffer_get_event(line->events, (unsigned long)i);
        events[i].timestamp_ns = gpiod_edge_event_get_timestamp_ns(event);
        events[i].rising = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE;
    }
    return count;
}
#endif
