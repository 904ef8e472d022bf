#include "gymtimer_mqtt.h"

#include <dlfcn.h>
#include <mqtt_protocol.h>
#include <pthread.h>
#include <stdio.h>

static void *library;
static char load_error[256];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    library = dlopen("libmosquitto.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "%s", reason ? reason : "libmosquitto.so.1 cannot be loaded");
    }
}

const char *gt_mosquitto_load(void) {
    pthread_once(&load_once, load);
    return library ? NULL : load_error;
}

// libmosquitto's `name`, looked up once; NULL when the library (or the symbol) is missing,
// and each wrapper then answers as libmosquitto would for a call it does not support.
static void *symbol(const char *name) {
    return gt_mosquitto_load() == NULL ? dlsym(library, name) : NULL;
}

// `fn`: libmosquitto's `name`, typed from its declaration in mosquitto.h (which references no
// symbol: nothing of libmosquitto is linked).
#define LOOKUP(name) \
    static __typeof__(name) *fn; \
    if (fn == NULL) fn = (__typeof__(name) *)symbol(#name)

int gt_mosquitto_lib_init(void) {
    LOOKUP(mosquitto_lib_init);
    return fn ? fn() : MOSQ_ERR_NOT_SUPPORTED;
}

struct mosquitto *gt_mosquitto_new(const char *id, bool clean_session, void *obj) {
    LOOKUP(mosquitto_new);
    return fn ? fn(id, clean_session, obj) : NULL;
}

void gt_mosquitto_destroy(struct mosquitto *mosq) {
    LOOKUP(mosquitto_destroy);
    if (fn) fn(mosq);
}

int gt_mosquitto_reinitialise(struct mosquitto *mosq, const char *id, bool clean_session, void *obj) {
    LOOKUP(mosquitto_reinitialise);
    return fn ? fn(mosq, id, clean_session, obj) : MOSQ_ERR_NOT_SUPPORTED;
}

int gt_mosquitto_threaded_set(struct mosquitto *mosq, bool threaded) {
    LOOKUP(mosquitto_threaded_set);
    return fn ? fn(mosq, threaded) : MOSQ_ERR_NOT_SUPPORTED;
}

void gt_mosquitto_user_data_set(struct mosquitto *mosq, void *obj) {
    LOOKUP(mosquitto_user_data_set);
    if (fn) fn(mosq, obj);
}

int gt_mosquitto_int_option(struct mosquitto *mosq, enum mosq_opt_t option, int value) {
    LOOKUP(mosquitto_int_option);
    return fn ? fn(mosq, option, value) : MOSQ_ERR_NOT_SUPPORTED;
}

void gt_mosquitto_connect_callback_set(struct mosquitto *mosq, void (*on_connect)(struct mosquitto *, void *, int)) {
    LOOKUP(mosquitto_connect_callback_set);
    if (fn) fn(mosq, on_connect);
}

void gt_mosquitto_disconnect_callback_set(struct mosquitto *mosq, void (*on_disconnect)(struct mosquitto *, void *, int)) {
    LOOKUP(mosquitto_disconnect_callback_set);
    if (fn) fn(mosq, on_disconnect);
}

void gt_mosquitto_message_callback_set(struct mosquitto *mosq,
    void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *)) {
    LOOKUP(mosquitto_message_callback_set);
    if (fn) fn(mosq, on_message);
}

void gt_mosquitto_publish_callback_set(struct mosquitto *mosq, void (*on_publish)(struct mosquitto *, void *, int)) {
    LOOKUP(mosquitto_publish_callback_set);
    if (fn) fn(mosq, on_publish);
}

void gt_mosquitto_subscribe_callback_set(struct mosquitto *mosq,
    void (*on_subscribe)(struct mosquitto *, void *, int, int, const int *)) {
    LOOKUP(mosquitto_subscribe_callback_set);
    if (fn) fn(mosq, on_subscribe);
}

int gt_mosquitto_username_pw_set(struct mosquitto *mosq, const char *username, const char *password) {
    LOOKUP(mosquitto_username_pw_set);
    return fn ? fn(mosq, username, password) : MOSQ_ERR_NOT_SUPPORTED;
}

int gt_mosquitto_will_set(struct mosquitto *mosq, const char *topic, int payloadlen, const void *payload, int qos, bool retain) {
    LOOKUP(mosquitto_will_set);
    return fn ? fn(mosq, topic, payloadlen, payload, qos, retain) : MOSQ_ERR_NOT_SUPPORTED;
}

int gt_mosquitto_tls_set(struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile,
    const char *keyfile, int (*pw_callback)(char *buf, int size, int rwflag, void *userdata)) {
    LOOKUP(mosquitto_tls_set);
    return fn ? fn(mosq, cafile, capath, certfile, keyfile, pw_callback) : MOSQ_ERR_NOT_SUPPORTED;
}

int gt_mosquitto_connect_async(struct mosquitto *mosq, const char *host, int port, int keepalive) {
    LOOKUP(mosquitto_connect_async);
    return fn ? fn(mosq, host, port, keepalive) : MOSQ_ERR_NOT_SUPPORTED;
}

int gt_mosquitto_reconnect_async(struct mosquitto *mosq) {
    LOOKUP(mosquitto_reconnect_async);
    return fn ? fn(mosq) : MOSQ_ERR_NOT_SUPPORTED;
}

int gt_mosquitto_disconnect(struct mosquitto *mosq) {
    LOOKUP(mosquitto_disconnect);
    return fn ? fn(mosq) : MOSQ_ERR_NOT_SUPPORTED;
}

int gt_mosquitto_socket(struct mosquitto *mosq) {
    LOOKUP(mosquitto_socket);
    return fn ? fn(mosq) : -1;
}

bool gt_mosquitto_want_write(struct mosquitto *mosq) {
    LOOKUP(mosquitto_want_write);
    return fn ? fn(mosq) : false;
}

int gt_mosquitto_loop_read(struct mosquitto *mosq, int max_packets) {
    LOOKUP(mosquitto_loop_read);
    return fn ? fn(mosq, max_packets) : MOSQ_ERR_NOT_SUPPORTED;
}

int gt_mosquitto_loop_write(struct mosquitto *mosq, int max_packets) {
    LOOKUP(mosquitto_loop_write);
    return fn ? fn(mosq, max_packets) : MOSQ_ERR_NOT_SUPPORTED;
}

int gt_mosquitto_loop_misc(struct mosquitto *mosq) {
    LOOKUP(mosquitto_loop_misc);
    return fn ? fn(mosq) : MOSQ_ERR_NOT_SUPPORTED;
}

int gt_mosquitto_publish(struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload,
    int qos, bool retain) {
    LOOKUP(mosquitto_publish);
    return fn ? fn(mosq, mid, topic, payloadlen, payload, qos, retain) : MOSQ_ERR_NOT_SUPPORTED;
}

int gt_mosquitto_subscribe(struct mosquitto *mosq, int *mid, const char *sub, int qos) {
    LOOKUP(mosquitto_subscribe);
    return fn ? fn(mosq, mid, sub, qos) : MOSQ_ERR_NOT_SUPPORTED;
}

const char *gt_mosquitto_strerror(int mosq_errno) {
    LOOKUP(mosquitto_strerror);
    return fn ? fn(mosq_errno) : "libmosquitto is not loaded";
}

const char *gt_mosquitto_connack_string(int connack_code) {
    LOOKUP(mosquitto_connack_string);
    return fn ? fn(connack_code) : "libmosquitto is not loaded";
}

const char *gt_mosquitto_reason_string(int reason_code) {
    LOOKUP(mosquitto_reason_string);
    return fn ? fn(reason_code) : "unknown reason";
}

int gt_mosquitto_limit_incoming(struct mosquitto *mosq, uint32_t maximum_packet_size, uint32_t session_expiry) {
    static __typeof__(mosquitto_int_option) *int_option;
    static __typeof__(mosquitto_property_add_int32) *add_int32;
    static __typeof__(mosquitto_property_free_all) *free_all;
    static __typeof__(mosquitto_connect_bind_v5) *connect_v5;
    if (int_option == NULL) int_option = (__typeof__(mosquitto_int_option) *)symbol("mosquitto_int_option");
    if (add_int32 == NULL) add_int32 = (__typeof__(mosquitto_property_add_int32) *)symbol("mosquitto_property_add_int32");
    if (free_all == NULL) free_all = (__typeof__(mosquitto_property_free_all) *)symbol("mosquitto_property_free_all");
    if (connect_v5 == NULL) connect_v5 = (__typeof__(mosquitto_connect_bind_v5) *)symbol("mosquitto_connect_bind_v5");
    if (!int_option || !add_int32 || !free_all || !connect_v5) return MOSQ_ERR_NOT_SUPPORTED;
    int rc = int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5);
    if (rc != MOSQ_ERR_SUCCESS) return rc;
    mosquitto_property *properties = NULL;
    rc = add_int32(&properties, MQTT_PROP_MAXIMUM_PACKET_SIZE, maximum_packet_size);
    if (rc == MOSQ_ERR_SUCCESS && session_expiry > 0) {
        rc = add_int32(&properties, MQTT_PROP_SESSION_EXPIRY_INTERVAL, session_expiry);
    }
    if (rc != MOSQ_ERR_SUCCESS) {
        free_all(&properties);
        return rc;
    }
    // libmosquitto 2.0 has no asynchronous connect that takes CONNECT properties, but it keeps
    // those given to mosquitto_connect_bind_v5 for every later (re)connect, asynchronous ones
    // included (lib/connect.c: stored before the host is checked). With no host it stores them
    // and returns MOSQ_ERR_INVAL without connecting; connect_async then sends them.
    rc = connect_v5(mosq, NULL, 0, 0, NULL, properties);
    free_all(&properties);
    return rc == MOSQ_ERR_INVAL ? MOSQ_ERR_SUCCESS : (rc == MOSQ_ERR_SUCCESS ? MOSQ_ERR_UNKNOWN : rc);
}
