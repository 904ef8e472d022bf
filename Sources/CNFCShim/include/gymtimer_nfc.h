#ifndef GYMTIMER_NFC_H
#define GYMTIMER_NFC_H
/*
 * libnfc (Debian's libnfc6, 1.8), loaded when a reader is first opened rather than linked
 * into gymtimer: a kiosk without an NFC reader never maps it, and the package only suggests
 * it. No header of libnfc's is needed to build: the few types these calls pass are opaque
 * here, and the one read from a listed target (its UID) is taken from libnfc 1.8's packed
 * layout, checked against the real library by the tests (PN532LibNFCTests).
 */
#include <stddef.h>
#include <stdint.h>

/// Loads libnfc.so.6 once: NULL when it is there, else why not (dlerror's words).
const char *gt_nfc_load(void);

/// An open reader (libnfc's context and device), or NULL; `error` gets why not (at most
/// `length` bytes with the NUL). `connstring`: libnfc's, e.g. `pn532_uart:/dev/serial0`.
void *gt_nfc_open(const char *connstring, char *error, size_t length);

/// Lists the ISO 14443-A cards at 106 kbps in the field (at most one): 1 with its UID in
/// `uid` (`*uid_length` bytes, at most 10), 0 when none, or a negative libnfc error.
int gt_nfc_poll(void *reader, uint8_t uid[10], size_t *uid_length);

/// libnfc's words for the reader's last error.
const char *gt_nfc_error(void *reader);

/// Closes the reader and its context.
void gt_nfc_close(void *reader);

#endif
