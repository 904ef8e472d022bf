#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include "gymtimer_pq.h"

static void *(*p_connect_start)(const char *const *, const char *const *, int);
static int (*p_connect_poll)(void *);
static int (*p_status)(const void *);
static int (*p_socket)(const void *);
static char *(*p_error_message)(const void *);
static int (*p_ssl_in_use)(void *);
static void (*p_finish)(void *);
static int (*p_set_nonblocking)(void *, int);
static int (*p_send_query_params)(void *, const char *, int, const unsigned int *, const char *const *, const int *, const int *, int);
static int (*p_flush)(void *);
static int (*p_consume_input)(void *);
static int (*p_is_busy)(void *);
static void *(*p_get_result)(void *);
static int (*p_result_status)(const void *);
static char *(*p_result_error_field)(const void *, int);
static char *(*p_result_error_message)(const void *);
static int (*p_ntuples)(const void *);
static int (*p_nfields)(const void *);
static char *(*p_getvalue)(const void *, int, int);
static int (*p_getisnull)(const void *, int, int);
static char *(*p_cmd_tuples)(void *);
static void (*p_clear)(void *);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];

static void load(void) {
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s (install libpq5)", dlerror());
        return;
    }
#define SYMBOL(pointer, name) \
    if (!(*(void **)&pointer = dlsym(library, name))) { snprintf(load_error, sizeof load_error, "libpq.so.5 lacks %s", name); return; }
    SYMBOL(p_connect_start, "PQconnectStartParams")
    SYMBOL(p_connect_poll, "PQconnectPoll")
    SYMBOL(p_status, "PQstatus")
    SYMBOL(p_socket, "PQsocket")
    SYMBOL(p_error_message, "PQerrorMessage")
    SYMBOL(p_ssl_in_use, "PQsslInUse")
    SYMBOL(p_finish, "PQfinish")
    SYMBOL(p_set_nonblocking, "PQsetnonblocking")
    SYMBOL(p_send_query_params, "PQsendQueryParams")
    SYMBOL(p_flush, "PQflush")
    SYMBOL(p_consume_input, "PQconsumeInput")
    SYMBOL(p_is_busy, "PQisBusy")
    SYMBOL(p_get_result, "PQgetResult")
    SYMBOL(p_result_status, "PQresultStatus")
    SYMBOL(p_result_error_field, "PQresultErrorField")
    SYMBOL(p_result_error_message, "PQresultErrorMessage")
    SYMBOL(p_ntuples, "PQntuples")
    SYMBOL(p_nfields, "PQnfields")
    SYMBOL(p_getvalue, "PQgetvalue")
    SYMBOL(p_getisnull, "PQgetisnull")
    SYMBOL(p_cmd_tuples, "PQcmdTuples")
    SYMBOL(p_clear, "PQclear")
#undef SYMBOL
}

const char *gt_pq_load(void) {
    pthread_once(&once, load);
    return load_error[0] ? load_error : NULL;
}

/* Each call below is made only after gt_pq_load() said NULL (PostgresLink loads first). */
void *gt_pq_connect_start(const char *const *keywords, const char *const *values) { return p_connect_start(keywords, values, 0); }
int gt_pq_connect_poll(void *conn) { return p_connect_poll(conn); }
int gt_pq_status(void *conn) { return p_status(conn); }
int gt_pq_socket(void *conn) { return p_socket(conn); }
const char *gt_pq_error_message(void *conn) { return p_error_message(conn); }
int gt_pq_ssl_in_use(void *conn) { return p_ssl_in_use(conn); }
void gt_pq_finish(void *conn) { p_finish(conn); }
int gt_pq_set_nonblocking(void *conn, int nonblocking) { return p_set_nonblocking(conn, nonblocking); }
int gt_pq_send_query(void *conn, const char *sql, int count, const char *const *values) {
    return p_send_query_params(conn, sql, count, NULL, values, NULL, NULL, 0);
}
int gt_pq_flush(void *conn) { return p_flush(conn); }
int gt_pq_consume_input(void *conn) { return p_consume_input(conn); }
int gt_pq_is_busy(void *conn) { return p_is_busy(conn); }
void *gt_pq_get_result(void *conn) { return p_get_result(conn); }
int gt_pq_result_status(void *result) { return p_result_status(result); }
const char *gt_pq_result_field(void *result, int code) { return p_result_error_field(result, code); }
const char *gt_pq_result_error(void *result) { return p_result_error_message(result); }
int gt_pq_rows(void *result) { return p_ntuples(result); }
int gt_pq_columns(void *result) { return p_nfields(result); }
const char *gt_pq_value(void *result, int row, int column) {
    return p_getisnull(result, row, column) ? NULL : p_getvalue(result, row, column);
}
const char *gt_pq_affected(void *result) { return p_cmd_tuples(result); }
void gt_pq_clear(void *result) { p_clear(result); }
