// Batched UDP socket calls for the DNS answer path (Linux): one recvmmsg(2) fills up to SLOTS
// datagrams into memory shared with JavaScript, JavaScript is called once for the whole batch,
// and the replies it leaves in the shared output memory go out with one sendmmsg(2).
//
// Node-API only (node_api.h, plus libuv's uv_poll_t on the loop Node-API hands out), so one
// build loads in every Node of the same Node-API version. See src/dns/server/udp-batch.ts.
#define NAPI_VERSION 8
#define _GNU_SOURCE
#include <node_api.h>
#include <uv.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

// The largest UDP payload: every datagram fits its slot whole, as with dgram.
#define SLOT_SIZE 65536
// Per slot in `meta` (Uint32): length, source port, text address length, flags (1: truncated).
#define META 4
// Per slot in `address`: the source address as text (INET6_ADDRSTRLEN), then its 16 raw octets.
#define ADDRESS_SIZE 64

typedef struct {
  int fd;
  int family;
  uint32_t slots;
  uv_poll_t poll;
  napi_env env;
  napi_ref callback; // onBatch(count)
  napi_ref self;     // the JS object holding the shared memory, kept alive while open
  napi_async_context async;
  uint8_t *input;    // slots × SLOT_SIZE
  uint8_t *output;   // slots × SLOT_SIZE
  uint32_t *meta;    // slots × META
  uint8_t *address;  // slots × ADDRESS_SIZE
  uint32_t *replies; // slots × 2: reply length, index of the datagram it answers
  struct mmsghdr *rmsg;
  struct iovec *riov;
  struct sockaddr_storage *peers;
  struct mmsghdr *smsg;
  struct iovec *siov;
  napi_async_cleanup_hook_handle cleanup; // closes the socket when its thread's env goes away
  int closed;
  int teardown; // closed by the env's cleanup: no more Node-API calls
} batch_socket;

#define CHECK(call) do { if ((call) != napi_ok) return NULL; } while (0)

static napi_value throw_errno (napi_env env, int err, const char *syscall) {
  napi_value message, code, error, sys;
  const char *name = uv_err_name(uv_translate_sys_error(err));
  char text[160];
  snprintf(text, sizeof text, "%s %s", syscall, name);
  napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &message);
  napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &code);
  napi_create_error(env, code, message, &error);
  napi_create_string_utf8(env, syscall, NAPI_AUTO_LENGTH, &sys);
  napi_set_named_property(env, error, "syscall", sys);
  napi_value errnum;
  napi_create_int32(env, uv_translate_sys_error(err), &errnum);
  napi_set_named_property(env, error, "errno", errnum);
  napi_throw(env, error);
  return NULL;
}

static void free_socket (batch_socket *s) {
  free(s->rmsg); free(s->riov); free(s->peers); free(s->smsg); free(s->siov);
  free(s);
}

static void on_poll_closed (uv_handle_t *handle) {
  batch_socket *s = handle->data;
  napi_env env = s->env;
  if (!s->teardown) {
    if (s->callback != NULL) napi_delete_reference(env, s->callback);
    if (s->self != NULL) napi_delete_reference(env, s->self);
    if (s->async != NULL) napi_async_destroy(env, s->async);
  }
  if (s->cleanup != NULL) napi_remove_async_cleanup_hook(s->cleanup);
  free_socket(s);
}

// The thread's env is going away (a worker thread ends) with the socket open: close it, since
// a loop may not be closed while it has open handles. Done when on_poll_closed removes the hook.
static void on_env_cleanup (napi_async_cleanup_hook_handle hook, void *data) {
  batch_socket *s = data;
  s->teardown = 1;
  if (s->closed) return; // a close is under way: on_poll_closed finishes it
  s->closed = 1;
  uv_close((uv_handle_t *)&s->poll, on_poll_closed);
  close(s->fd);
  s->fd = -1;
}

static batch_socket *unwrap (napi_env env, napi_value value) {
  batch_socket *s = NULL;
  if (napi_unwrap(env, value, (void **)&s) != napi_ok || s == NULL) {
    napi_throw_error(env, NULL, "not an open batch socket");
    return NULL;
  }
  if (s->closed) {
    napi_throw_error(env, "ERR_SOCKET_DGRAM_NOT_RUNNING", "Not running");
    return NULL;
  }
  return s;
}

static napi_value typed (napi_env env, napi_value object, const char *name, napi_typedarray_type type, size_t bytes, size_t length, void **data) {
  napi_value buffer, array;
  CHECK(napi_create_arraybuffer(env, bytes, data, &buffer));
  CHECK(napi_create_typedarray(env, type, length, buffer, 0, &array));
  CHECK(napi_set_named_property(env, object, name, array));
  return array;
}

// open(host: string, port: number, ipv6: boolean, reusePort: boolean, slots: number) → socket
// The socket object: { port, input, output, meta, address, replies } (typed arrays over shared
// memory). Throws the bind/socket error with `code` and `syscall`, as dgram's errors have.
static napi_value open_socket (napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  char host[INET6_ADDRSTRLEN + 1];
  size_t hostLength;
  CHECK(napi_get_value_string_utf8(env, argv[0], host, sizeof host, &hostLength));
  int32_t port;
  bool ipv6, reuse;
  uint32_t slots;
  CHECK(napi_get_value_int32(env, argv[1], &port));
  CHECK(napi_get_value_bool(env, argv[2], &ipv6));
  CHECK(napi_get_value_bool(env, argv[3], &reuse));
  CHECK(napi_get_value_uint32(env, argv[4], &slots));
  if (slots < 1 || slots > 1024) { napi_throw_range_error(env, NULL, "slots out of range"); return NULL; }

  struct sockaddr_storage local;
  socklen_t localLength;
  memset(&local, 0, sizeof local);
  if (ipv6) {
    struct sockaddr_in6 *a = (struct sockaddr_in6 *)&local;
    a->sin6_family = AF_INET6;
    a->sin6_port = htons((uint16_t)port);
    if (inet_pton(AF_INET6, host, &a->sin6_addr) != 1) return throw_errno(env, EINVAL, "bind");
    localLength = sizeof *a;
  } else {
    struct sockaddr_in *a = (struct sockaddr_in *)&local;
    a->sin_family = AF_INET;
    a->sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, host, &a->sin_addr) != 1) return throw_errno(env, EINVAL, "bind");
    localLength = sizeof *a;
  }
  int fd = socket(ipv6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return throw_errno(env, errno, "socket");
  int on = 1;
  if (ipv6 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on) != 0) { int e = errno; close(fd); return throw_errno(env, e, "setsockopt"); }
  if (reuse && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on) != 0) { int e = errno; close(fd); return throw_errno(env, e, "setsockopt"); }
  if (bind(fd, (struct sockaddr *)&local, localLength) != 0) { int e = errno; close(fd); return throw_errno(env, e, "bind"); }
  localLength = sizeof local;
  getsockname(fd, (struct sockaddr *)&local, &localLength);
  int bound = ntohs(ipv6 ? ((struct sockaddr_in6 *)&local)->sin6_port : ((struct sockaddr_in *)&local)->sin_port);

  batch_socket *s = calloc(1, sizeof *s);
  if (s == NULL) { close(fd); return throw_errno(env, ENOMEM, "socket"); }
  s->fd = fd;
  s->family = ipv6 ? 6 : 4;
  s->slots = slots;
  s->env = env;
  s->rmsg = calloc(slots, sizeof *s->rmsg);
  s->riov = calloc(slots, sizeof *s->riov);
  s->peers = calloc(slots, sizeof *s->peers);
  s->smsg = calloc(slots, sizeof *s->smsg);
  s->siov = calloc(slots, sizeof *s->siov);
  if (s->rmsg == NULL || s->riov == NULL || s->peers == NULL || s->smsg == NULL || s->siov == NULL) {
    close(fd);
    free_socket(s);
    return throw_errno(env, ENOMEM, "socket");
  }

  napi_value object, value;
  CHECK(napi_create_object(env, &object));
  CHECK(napi_create_int32(env, bound, &value));
  CHECK(napi_set_named_property(env, object, "port", value));
  if (typed(env, object, "input", napi_uint8_array, (size_t)slots * SLOT_SIZE, (size_t)slots * SLOT_SIZE, (void **)&s->input) == NULL ||
      typed(env, object, "output", napi_uint8_array, (size_t)slots * SLOT_SIZE, (size_t)slots * SLOT_SIZE, (void **)&s->output) == NULL ||
      typed(env, object, "meta", napi_uint32_array, (size_t)slots * META * 4, (size_t)slots * META, (void **)&s->meta) == NULL ||
      typed(env, object, "address", napi_uint8_array, (size_t)slots * ADDRESS_SIZE, (size_t)slots * ADDRESS_SIZE, (void **)&s->address) == NULL ||
      typed(env, object, "replies", napi_uint32_array, (size_t)slots * 2 * 4, (size_t)slots * 2, (void **)&s->replies) == NULL) {
    close(fd);
    free_socket(s);
    return NULL;
  }
  for (uint32_t i = 0; i < slots; i++) {
    s->riov[i].iov_base = s->input + (size_t)i * SLOT_SIZE;
    s->riov[i].iov_len = SLOT_SIZE;
    s->rmsg[i].msg_hdr.msg_iov = &s->riov[i];
    s->rmsg[i].msg_hdr.msg_iovlen = 1;
    s->rmsg[i].msg_hdr.msg_name = &s->peers[i];
    s->smsg[i].msg_hdr.msg_iov = &s->siov[i];
    s->smsg[i].msg_hdr.msg_iovlen = 1;
  }
  uv_loop_t *loop;
  CHECK(napi_get_uv_event_loop(env, &loop));
  if (uv_poll_init(loop, &s->poll, fd) != 0) { close(fd); free_socket(s); return throw_errno(env, EINVAL, "uv_poll_init"); }
  s->poll.data = s;
  CHECK(napi_add_async_cleanup_hook(env, on_env_cleanup, s, &s->cleanup));
  CHECK(napi_wrap(env, object, s, NULL, NULL, NULL));
  CHECK(napi_create_reference(env, object, 1, &s->self));
  napi_value name;
  CHECK(napi_create_string_utf8(env, "UDPBATCH", NAPI_AUTO_LENGTH, &name));
  CHECK(napi_async_init(env, object, name, &s->async));
  return object;
}

// Calls onBatch; an exception it lets through is an uncaught exception of the process.
static void call_back (batch_socket *s, napi_value self, napi_value callback, napi_value *argv) {
  napi_value result;
  bool pending = false;
  if (napi_make_callback(s->env, s->async, self, callback, 2, argv, &result) != napi_ok &&
      napi_is_exception_pending(s->env, &pending) == napi_ok && pending) {
    napi_value error;
    napi_get_and_clear_last_exception(s->env, &error);
    napi_fatal_exception(s->env, error);
  }
}

static void on_readable (uv_poll_t *poll, int status, int events) {
  batch_socket *s = poll->data;
  if (s->closed) return;
  napi_env env = s->env;
  napi_handle_scope scope;
  napi_open_handle_scope(env, &scope);
  napi_value self, callback, argv[2];
  napi_get_reference_value(env, s->self, &self);
  napi_get_reference_value(env, s->callback, &callback);
  if (status < 0) {
    napi_get_null(env, &argv[0]);
    napi_create_int32(env, status, &argv[1]);
    call_back(s, self, callback, argv);
    goto done;
  }
  for (uint32_t i = 0; i < s->slots; i++) s->rmsg[i].msg_hdr.msg_namelen = sizeof s->peers[i];
  int n = recvmmsg(s->fd, s->rmsg, s->slots, MSG_DONTWAIT, NULL);
  if (n < 0) {
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
      napi_get_null(env, &argv[0]);
      napi_create_int32(env, uv_translate_sys_error(errno), &argv[1]);
      call_back(s, self, callback, argv);
    }
    goto done;
  }
  for (int i = 0; i < n; i++) {
    uint32_t *m = s->meta + (size_t)i * META;
    uint8_t *a = s->address + (size_t)i * ADDRESS_SIZE;
    m[0] = s->rmsg[i].msg_len;
    m[3] = (s->rmsg[i].msg_hdr.msg_flags & MSG_TRUNC) != 0 ? 1 : 0;
    if (s->peers[i].ss_family == AF_INET6) {
      struct sockaddr_in6 *p = (struct sockaddr_in6 *)&s->peers[i];
      m[1] = ntohs(p->sin6_port);
      inet_ntop(AF_INET6, &p->sin6_addr, (char *)a, INET6_ADDRSTRLEN);
      memcpy(a + ADDRESS_SIZE - 16, &p->sin6_addr, 16);
    } else {
      struct sockaddr_in *p = (struct sockaddr_in *)&s->peers[i];
      m[1] = ntohs(p->sin_port);
      inet_ntop(AF_INET, &p->sin_addr, (char *)a, INET6_ADDRSTRLEN);
      memset(a + ADDRESS_SIZE - 16, 0, 12);
      memcpy(a + ADDRESS_SIZE - 4, &p->sin_addr, 4);
    }
    m[2] = (uint32_t)strlen((char *)a);
  }
  napi_create_uint32(env, (uint32_t)n, &argv[0]);
  napi_create_int32(env, 0, &argv[1]);
  call_back(s, self, callback, argv);
done:
  napi_close_handle_scope(env, scope);
}

// start(socket, onBatch): reads while open; onBatch(count, 0) per batch, onBatch(null, errno) on
// a socket error. The datagrams of a batch are valid only during its call.
static napi_value start (napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  batch_socket *s = unwrap(env, argv[0]);
  if (s == NULL) return NULL;
  if (s->callback != NULL) napi_delete_reference(env, s->callback);
  CHECK(napi_create_reference(env, argv[1], 1, &s->callback));
  int r = uv_poll_start(&s->poll, UV_READABLE, on_readable);
  if (r != 0) return throw_errno(env, -r, "uv_poll_start");
  return NULL;
}

// send(socket, count) → replies sent: replies[2i] octets of output slot i to the source of
// datagram replies[2i + 1] of the batch being answered. A full send buffer drops the rest (as
// a full receive buffer drops datagrams); another error throws once the other replies are sent.
static napi_value send_replies (napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], result;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  batch_socket *s = unwrap(env, argv[0]);
  if (s == NULL) return NULL;
  uint32_t count;
  CHECK(napi_get_value_uint32(env, argv[1], &count));
  if (count > s->slots) count = s->slots;
  for (uint32_t i = 0; i < count; i++) {
    uint32_t to = s->replies[2 * i + 1];
    if (to >= s->slots) to = 0;
    s->siov[i].iov_base = s->output + (size_t)i * SLOT_SIZE;
    s->siov[i].iov_len = s->replies[2 * i] > SLOT_SIZE ? SLOT_SIZE : s->replies[2 * i];
    s->smsg[i].msg_hdr.msg_name = &s->peers[to];
    s->smsg[i].msg_hdr.msg_namelen = s->rmsg[to].msg_hdr.msg_namelen;
  }
  uint32_t done = 0, sent = 0;
  int failed = 0;
  while (done < count) {
    int n = sendmmsg(s->fd, s->smsg + done, count - done, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      // This reply fails (e.g. an unreachable destination); the others still go.
      if (failed == 0) failed = errno;
      done++;
      continue;
    }
    done += (uint32_t)n;
    sent += (uint32_t)n;
  }
  if (failed != 0) return throw_errno(env, failed, "send");
  CHECK(napi_create_uint32(env, sent, &result));
  return result;
}

// close(socket): stops reading and closes the descriptor (at once; its memory when libuv is done).
static napi_value close_socket (napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  batch_socket *s = unwrap(env, argv[0]);
  if (s == NULL) return NULL;
  s->closed = 1;
  void *unwrapped;
  napi_remove_wrap(env, argv[0], &unwrapped);
  // libuv forgets the descriptor now (the handle's memory goes in on_poll_closed); the port is
  // free again when this returns, as with dgram's close.
  uv_close((uv_handle_t *)&s->poll, on_poll_closed);
  close(s->fd);
  s->fd = -1;
  return NULL;
}

// ref(socket, on): whether the socket keeps the loop alive (as dgram's ref/unref).
static napi_value ref_socket (napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  batch_socket *s = unwrap(env, argv[0]);
  if (s == NULL) return NULL;
  bool on;
  CHECK(napi_get_value_bool(env, argv[1], &on));
  if (on) uv_ref((uv_handle_t *)&s->poll);
  else uv_unref((uv_handle_t *)&s->poll);
  return NULL;
}

NAPI_MODULE_INIT () {
  napi_property_descriptor props[] = {
    { "open", NULL, open_socket, NULL, NULL, NULL, napi_enumerable, NULL },
    { "start", NULL, start, NULL, NULL, NULL, napi_enumerable, NULL },
    { "send", NULL, send_replies, NULL, NULL, NULL, napi_enumerable, NULL },
    { "close", NULL, close_socket, NULL, NULL, NULL, napi_enumerable, NULL },
    { "ref", NULL, ref_socket, NULL, NULL, NULL, napi_enumerable, NULL }
  };
  napi_value slot;
  if (napi_define_properties(env, exports, sizeof props / sizeof props[0], props) != napi_ok) return NULL;
  napi_create_uint32(env, SLOT_SIZE, &slot);
  napi_set_named_property(env, exports, "SLOT_SIZE", slot);
  napi_create_uint32(env, META, &slot);
  napi_set_named_property(env, exports, "META", slot);
  napi_create_uint32(env, ADDRESS_SIZE, &slot);
  napi_set_named_property(env, exports, "ADDRESS_SIZE", slot);
  return exports;
}
