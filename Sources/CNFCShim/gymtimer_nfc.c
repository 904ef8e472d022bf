#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gymtimer_nfc.h"

/* libnfc 1.8's types as its ABI has them: nfc_modulation is two enums passed by value;
 * nfc_target is packed (#pragma pack(1)), 291 bytes, its ISO 14443-A info first:
 * abtAtqa[2], btSak, szUidLen (size_t) at offset 3, abtUid[10] at offset 11. */
typedef struct { int nmt; int nbr; } gt_nfc_modulation;
enum { GT_NMT_ISO14443A = 1, GT_NBR_106 = 1, GT_TARGET_SIZE = 291, GT_UID_LENGTH_AT = 3, GT_UID_AT = 11 };

static void (*p_init)(void **context);
static void (*p_exit)(void *context);
static void *(*p_open)(void *context, const char *connstring);
static void (*p_close)(void *device);
static int (*p_initiator_init)(void *device);
static int (*p_list_passive_targets)(void *device, gt_nfc_modulation modulation, void *targets, size_t count);
static const char *(*p_strerror)(const void *device);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];

static void load(void) {
    /* libnfc writes its own errors to stderr (the journal, under the unit) on every failed open:
     * a reader unplugged and retried every 5 s would add lines for ever. The kiosk says each
     * fault once itself, so libnfc stays quiet unless whoever runs it asked for its log. */
    setenv("LIBNFC_LOG_LEVEL", "0", 0);
    void *library = dlopen("libnfc.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s (install libnfc6)", dlerror());
        return;
    }
#define SYMBOL(pointer, name) \
    if (!(*(void **)&pointer = dlsym(library, name))) { snprintf(load_error, sizeof load_error, "libnfc.so.6 lacks %s", name); return; }
    SYMBOL(p_init, "nfc_init")
    SYMBOL(p_exit, "nfc_exit")
    SYMBOL(p_open, "nfc_open")
    SYMBOL(p_close, "nfc_close")
    SYMBOL(p_initiator_init, "nfc_initiator_init")
    SYMBOL(p_list_passive_targets, "nfc_initiator_list_passive_targets")
    SYMBOL(p_strerror, "nfc_strerror")
#undef SYMBOL
}

const char *gt_nfc_load(void) {
    pthread_once(&once, load);
    return load_error[0] ? load_error : NULL;
}

struct gt_reader { void *context; void *device; };

void *gt_nfc_open(const char *connstring, char *error, size_t length) {
    const char *why = gt_nfc_load();
    if (why) { snprintf(error, length, "%s", why); return NULL; }
    struct gt_reader *reader = calloc(1, sizeof *reader);
    if (!reader) { snprintf(error, length, "out of memory"); return NULL; }
    p_init(&reader->context);
    if (!reader->context) { snprintf(error, length, "libnfc could not start (nfc_init)"); free(reader); return NULL; }
    reader->device = p_open(reader->context, connstring);
    if (!reader->device) {
        snprintf(error, length, "no reader answered on %s", connstring);
        p_exit(reader->context); free(reader); return NULL;
    }
    if (p_initiator_init(reader->device) < 0) {
        snprintf(error, length, "the reader would not start reading cards: %s", p_strerror(reader->device));
        p_close(reader->device); p_exit(reader->context); free(reader); return NULL;
    }
    return reader;
}

int gt_nfc_poll(void *opened, uint8_t uid[10], size_t *uid_length) {
    struct gt_reader *reader = opened;
    unsigned char target[GT_TARGET_SIZE + 64];
    memset(target, 0, sizeof target);
    gt_nfc_modulation modulation = { GT_NMT_ISO14443A, GT_NBR_106 };
    int found = p_list_passive_targets(reader->device, modulation, target, 1);
    if (found <= 0) return found;
    size_t length;
    memcpy(&length, target + GT_UID_LENGTH_AT, sizeof length);
    if (length > 10) length = 10;
    memcpy(uid, target + GT_UID_AT, length);
    *uid_length = length;
    return 1;
}

const char *gt_nfc_error(void *opened) {
    struct gt_reader *reader = opened;
    return p_strerror(reader->device);
}

void gt_nfc_close(void *opened) {
    struct gt_reader *reader = opened;
    if (!reader) return;
    p_close(reader->device);
    p_exit(reader->context);
    free(reader);
}
