#ifndef GYMTIMER_PQ_H
#define GYMTIMER_PQ_H
/*
 * libpq (PostgreSQL's client library, Debian's libpq5), loaded when the central store first
 * connects rather than linked: only gymtimer-central uses it, so a kiosk never maps it and
 * the package only recommends it, and nothing of PostgreSQL's is needed to build. The few
 * calls the central store makes, with libpq's opaque PGconn and PGresult as `void *` and its
 * enums as the ints libpq-fe.h gives them (named below). Parameters and results are text.
 */
#include <stddef.h>

/// ConnStatusType's first two values; PostgresPollingStatusType; ExecStatusType's used ones.
enum {
    GT_PQ_CONNECTION_OK = 0, GT_PQ_CONNECTION_BAD = 1,
    GT_PQ_POLLING_FAILED = 0, GT_PQ_POLLING_READING = 1, GT_PQ_POLLING_WRITING = 2, GT_PQ_POLLING_OK = 3,
    GT_PQ_EMPTY_QUERY = 0, GT_PQ_COMMAND_OK = 1, GT_PQ_TUPLES_OK = 2,
};

/// Loads libpq.so.5 once: NULL when it is there, else why not (dlerror's words).
const char *gt_pq_load(void);

/// PQconnectStartParams: a connection begun without blocking (NULL: out of memory).
void *gt_pq_connect_start(const char *const *keywords, const char *const *values);
/// PQconnectPoll: what the connection waits for next (GT_PQ_POLLING_*).
int gt_pq_connect_poll(void *conn);
/// PQstatus.
int gt_pq_status(void *conn);
/// PQsocket: the descriptor to poll, -1 when none.
int gt_pq_socket(void *conn);
/// PQerrorMessage: the connection's last error (libpq's words, possibly several lines).
const char *gt_pq_error_message(void *conn);
/// PQsslInUse: 1 over TLS.
int gt_pq_ssl_in_use(void *conn);
/// PQfinish: closes the connection and frees it.
void gt_pq_finish(void *conn);

/// PQsetnonblocking.
int gt_pq_set_nonblocking(void *conn, int nonblocking);
/// PQsendQueryParams with `count` text parameters (NULL: SQL's NULL), their types the
/// server's to infer, the results in text: 1 when sent.
int gt_pq_send_query(void *conn, const char *sql, int count, const char *const *values);
/// PQflush: 0 when everything is sent, 1 when more remains, -1 on failure.
int gt_pq_flush(void *conn);
/// PQconsumeInput: 1, or 0 on failure.
int gt_pq_consume_input(void *conn);
/// PQisBusy: 1 while PQgetResult would block.
int gt_pq_is_busy(void *conn);
/// PQgetResult: the next result, NULL when the statement is done.
void *gt_pq_get_result(void *conn);

/// PQresultStatus (GT_PQ_*).
int gt_pq_result_status(void *result);
/// PQresultErrorField with PG_DIAG_MESSAGE_PRIMARY ('M') or PG_DIAG_SQLSTATE ('C'): NULL when none.
const char *gt_pq_result_field(void *result, int code);
/// PQresultErrorMessage.
const char *gt_pq_result_error(void *result);
/// PQntuples, PQnfields.
int gt_pq_rows(void *result);
int gt_pq_columns(void *result);
/// PQgetvalue: the cell's text; NULL when it is SQL's NULL (PQgetisnull).
const char *gt_pq_value(void *result, int row, int column);
/// PQcmdTuples: the rows a command touched, "" for one that touches none.
const char *gt_pq_affected(void *result);
/// PQclear.
void gt_pq_clear(void *result);

#endif
