#ifndef GYMTIMER_MQTT_H
#define GYMTIMER_MQTT_H

// libmosquitto, loaded when the first MQTT client is made rather than linked into gymtimer:
// a kiosk without a [fleet] section never maps it (nor the OpenSSL it pulls in), so its
// memory and start-up stay what they were. Each gt_mosquitto_* calls libmosquitto's function
// of the same name; mosquitto.h (libmosquitto-dev) gives the types.
#include <mosquitto.h>

// Loads libmosquitto.so.1 once: NULL when it is there, else why not (dlerror's words).
const char *gt_mosquitto_load(void);

int gt_mosquitto_lib_init(void);
struct mosquitto *gt_mosquitto_new(const char *id, bool clean_session, void *obj);
void gt_mosquitto_destroy(struct mosquitto *mosq);
int gt_mosquitto_reinitialise(struct mosquitto *mosq, const char *id, bool clean_session, void *obj);
int gt_mosquitto_threaded_set(struct mosquitto *mosq, bool threaded);
void gt_mosquitto_user_data_set(struct mosquitto *mosq, void *obj);
int gt_mosquitto_int_option(struct mosquitto *mosq, enum mosq_opt_t option, int value);
void gt_mosquitto_connect_callback_set(struct mosquitto *mosq, void (*on_connect)(struct mosquitto *, void *, int));
void gt_mosquitto_disconnect_callback_set(struct mosquitto *mosq, void (*on_disconnect)(struct mosquitto *, void *, int));
void gt_mosquitto_message_callback_set(struct mosquitto *mosq,
    void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *));
void gt_mosquitto_publish_callback_set(struct mosquitto *mosq, void (*on_publish)(struct mosquitto *, void *, int));
void gt_mosquitto_subscribe_callback_set(struct mosquitto *mosq,
    void (*on_subscribe)(struct mosquitto *, void *, int, int, const int *));
int gt_mosquitto_username_pw_set(struct mosquitto *mosq, const char *username, const char *password);
int gt_mosquitto_will_set(struct mosquitto *mosq, const char *topic, int payloadlen, const void *payload, int qos, bool retain);
int gt_mosquitto_tls_set(struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile,
    const char *keyfile, int (*pw_callback)(char *buf, int size, int rwflag, void *userdata));
int gt_mosquitto_connect_async(struct mosquitto *mosq, const char *host, int port, int keepalive);
int gt_mosquitto_reconnect_async(struct mosquitto *mosq);
int gt_mosquitto_disconnect(struct mosquitto *mosq);
int gt_mosquitto_socket(struct mosquitto *mosq);
bool gt_mosquitto_want_write(struct mosquitto *mosq);
int gt_mosquitto_loop_read(struct mosquitto *mosq, int max_packets);
int gt_mosquitto_loop_write(struct mosquitto *mosq, int max_packets);
int gt_mosquitto_loop_misc(struct mosquitto *mosq);
int gt_mosquitto_publish(struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload,
    int qos, bool retain);
int gt_mosquitto_subscribe(struct mosquitto *mosq, int *mid, const char *sub, int qos);
const char *gt_mosquitto_strerror(int mosq_errno);
const char *gt_mosquitto_connack_string(int connack_code);
const char *gt_mosquitto_reason_string(int reason_code);

// Speaks MQTT v5 from the next connection on and asks the broker, in every CONNECT (the first
// and each reconnect), never to send a packet larger than `maximum_packet_size` bytes (the
// broker drops such a message for this client instead: an oversized one is never read into
// memory). `session_expiry`: seconds the broker keeps a persistent session (v5 ends it at
// disconnect otherwise); 0 for a clean one. MOSQ_ERR_SUCCESS or why not.
int gt_mosquitto_limit_incoming(struct mosquitto *mosq, uint32_t maximum_packet_size, uint32_t session_expiry);

#endif
