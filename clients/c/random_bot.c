/* A sample bot for the pidor match server, protocol pidor/2 (protocol/PROTOCOL.md), in C
 * over POSIX sockets, with msgpack-c (Debian: libmsgpack-dev). It plays a random honest
 * option, never calls «пидор!» (and says so: the server passes every call window for it)
 * and votes at random; it plays every game the server has (it only echoes the options it
 * is offered), pays when a turn asks for a card, and comes back with its token after a drop.
 *
 *   ./random_bot --port 7777 --create podkidnoy --players 3 --deck 52 --games 2
 *   ./random_bot --port 7777 --table 3        (or neither: the first open table)
 *   pidor match --seat "cmd:clients/c/random_bot --games 0" --seat builtin:random
 *   pidor conform clients/c/random_bot
 *
 * PIDOR_HOST, PIDOR_PORT and PIDOR_TOKEN in the environment (pidor match and pidor conform
 * give them) are the defaults of --host, --port and --token: with the token it is back at
 * the seat it was given.
 *
 * The protocol in five rules, as this file follows them:
 *   1. every frame is a 4-byte big-endian length and one msgpack map (at most 64 KiB);
 *   2. say hello first: {"type": "hello", "version": "pidor/2", "name": ...}; keep the token;
 *   3. act only on a turn, once per turn seq, with that seq; again only if refused;
 *   4. answer each call window you owe with pass (or call), each court with a vote,
 *      naming the seq of the window or court event; a bot that never calls, as this one,
 *      says "may_call": false in hello instead, and owes no window (the server passes);
 *      with "windows": false too (minor 2), it is not even sent the window events;
 *   5. ignore fields and message types you do not know.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <msgpack.h>

#define MAX_FRAME 65536
#define IDLE_PING_MS 60000

struct bot {
    const char *host, *port, *name, *create;  /* create: the game of --create (NULL: the server's) */
    bool creating;          /* a table is to be created (--create, or no open table) */
    long table_wanted, players, bots, deck, games;
    int fd;
    unsigned char buf[4 + MAX_FRAME];
    size_t have, taken;     /* bytes in buf; of them, the frame last returned (still in use) */
    char token[128];
    char fatal[64];         /* the code of the last fatal error the server sent */
    int64_t seat, next_id;
    int64_t acted_seq, acted_id;  /* our last action: one per turn seq (rule 3) */
    int64_t seat_id;        /* the id of our join or create request (-1: none sent) */
    bool refused;           /* the server refused it: no seat to play, the bot ends (status 1) */
    int64_t started;        /* the table's game count when we sent start (-1: none) */
    long done;              /* games over */
};

/* --- reading messages --------------------------------------------------------------------- */

/* The value of `key` in map `m`, or NULL. */
static const msgpack_object *get(const msgpack_object *m, const char *key)
{
    if (m == NULL || m->type != MSGPACK_OBJECT_MAP)
        return NULL;
    size_t n = strlen(key);
    for (uint32_t i = 0; i < m->via.map.size; i++) {
        const msgpack_object *k = &m->via.map.ptr[i].key;
        if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == n && memcmp(k->via.str.ptr, key, n) == 0)
            return &m->via.map.ptr[i].val;
    }
    return NULL;
}

static bool is_int(const msgpack_object *o)
{
    return o && (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER || o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER);
}

static int64_t get_int(const msgpack_object *m, const char *key, int64_t otherwise)
{
    const msgpack_object *o = get(m, key);
    return is_int(o) ? o->via.i64 : otherwise;
}

/* Whether m[key] is the string `s`. */
static bool is(const msgpack_object *m, const char *key, const char *s)
{
    const msgpack_object *o = get(m, key);
    size_t n = strlen(s);
    return o && o->type == MSGPACK_OBJECT_STR && o->via.str.size == n && memcmp(o->via.str.ptr, s, n) == 0;
}

/* m[key] as a C string in out (cut to size), or "" */
static void get_str(const msgpack_object *m, const char *key, char *out, size_t size)
{
    const msgpack_object *o = get(m, key);
    size_t n = 0;
    if (o && o->type == MSGPACK_OBJECT_STR) {
        n = o->via.str.size < size - 1 ? o->via.str.size : size - 1;
        memcpy(out, o->via.str.ptr, n);
    }
    out[n] = '\0';
}

/* Whether the array m[key] holds the integer x. */
static bool holds(const msgpack_object *m, const char *key, int64_t x)
{
    const msgpack_object *a = get(m, key);
    if (!a || a->type != MSGPACK_OBJECT_ARRAY)
        return false;
    for (uint32_t i = 0; i < a->via.array.size; i++)
        if (is_int(&a->via.array.ptr[i]) && a->via.array.ptr[i].via.i64 == x)
            return true;
    return false;
}

/* The next message into `out` (rule 1): 1, or 0 after timeout_ms without one, or -1 when
 * the connection is gone or a frame is not one msgpack map. The message's strings point
 * into b->buf (msgpack-c does not copy them): it is good until the next call. */
static int receive(struct bot *b, msgpack_unpacked *out, int timeout_ms)
{
    memmove(b->buf, b->buf + b->taken, b->have - b->taken);
    b->have -= b->taken;
    b->taken = 0;
    for (;;) {
        if (b->have >= 4) {
            uint32_t n = (uint32_t)b->buf[0] << 24 | b->buf[1] << 16 | b->buf[2] << 8 | b->buf[3];
            if (n > MAX_FRAME) {
                fprintf(stderr, "a frame of %u bytes announced: over the limit\n", n);
                return -1;
            }
            if (b->have >= 4 + n) {
                size_t used = 0;
                int ok = msgpack_unpack_next(out, (const char *)b->buf + 4, n, &used) == MSGPACK_UNPACK_SUCCESS
                         && used == n && out->data.type == MSGPACK_OBJECT_MAP;
                b->taken = 4 + n;
                if (!ok)
                    fprintf(stderr, "a frame that is not one msgpack map\n");
                return ok ? 1 : -1;
            }
        }
        struct pollfd p = {.fd = b->fd, .events = POLLIN};
        int ready = poll(&p, 1, timeout_ms);
        if (ready == 0)
            return 0;
        ssize_t got = ready < 0 ? -1 : read(b->fd, b->buf + b->have, sizeof b->buf - b->have);
        if (got <= 0)
            return -1;
        b->have += (size_t)got;
    }
}

/* --- sending messages ---------------------------------------------------------------------- */

struct message {
    msgpack_sbuffer buf;
    msgpack_packer pk;
};

static void pack_str(msgpack_packer *pk, const char *s)
{
    msgpack_pack_str(pk, strlen(s));
    msgpack_pack_str_body(pk, s, strlen(s));
}

/* A message of `type` with `fields` more key-value pairs, added by the calls below. */
static void begin(struct message *m, const char *type, uint32_t fields)
{
    msgpack_sbuffer_init(&m->buf);
    msgpack_packer_init(&m->pk, &m->buf, msgpack_sbuffer_write);
    msgpack_pack_map(&m->pk, fields + 1);
    pack_str(&m->pk, "type");
    pack_str(&m->pk, type);
}

static void add_int(struct message *m, const char *key, int64_t v)
{
    pack_str(&m->pk, key);
    msgpack_pack_int64(&m->pk, v);
}

static void add_str(struct message *m, const char *key, const char *v)
{
    pack_str(&m->pk, key);
    pack_str(&m->pk, v);
}

static void add_bool(struct message *m, const char *key, bool v)
{
    pack_str(&m->pk, key);
    v ? msgpack_pack_true(&m->pk) : msgpack_pack_false(&m->pk);
}

/* The frame (length, then the map) onto the socket; false if it cannot be written (a
 * closed connection is then found by the next read: MSG_NOSIGNAL, no SIGPIPE). */
static bool finish(struct bot *b, struct message *m)
{
    unsigned char head[4] = {m->buf.size >> 24, m->buf.size >> 16, m->buf.size >> 8, m->buf.size};
    bool ok = send(b->fd, head, 4, MSG_NOSIGNAL) == 4
              && send(b->fd, m->buf.data, m->buf.size, MSG_NOSIGNAL) == (ssize_t)m->buf.size;
    msgpack_sbuffer_destroy(&m->buf);
    return ok;
}

/* A request with a fresh id and no other field: start, leave, ping. */
static void request(struct bot *b, const char *type)
{
    struct message m;
    begin(&m, type, 1);
    add_int(&m, "id", b->next_id++);
    finish(b, &m);
}

/* --- the game ------------------------------------------------------------------------------ */

static bool connect_and_hello(struct bot *b)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *ai;
    if (getaddrinfo(b->host, b->port, &hints, &ai) != 0)
        return false;
    b->fd = -1;
    for (struct addrinfo *a = ai; a && b->fd < 0; a = a->ai_next) {
        b->fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (b->fd >= 0 && connect(b->fd, a->ai_addr, a->ai_addrlen) != 0) {
            close(b->fd);
            b->fd = -1;
        }
    }
    freeaddrinfo(ai);
    if (b->fd < 0)
        return false;
    int one = 1;
    setsockopt(b->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    b->have = b->taken = 0;
    b->acted_seq = b->acted_id = -1;
    struct message m;  /* rule 2 */
    begin(&m, "hello", b->token[0] ? 6 : 5);
    add_int(&m, "id", b->next_id++);
    add_str(&m, "version", "pidor/2");
    add_str(&m, "name", b->name);
    add_bool(&m, "may_call", false);  /* rule 4: it never calls, so it owes no call window */
    add_bool(&m, "windows", false);   /* ... and wants no window events (seq skips them; minor 2) */
    if (b->token[0])
        add_str(&m, "token", b->token);
    return finish(b, &m);
}

/* Start the next game if we are the host, every seat is taken and no game runs. */
static void maybe_start(struct bot *b, const msgpack_object *info)
{
    const msgpack_object *seats = get(info, "seats");
    if (!seats || seats->type != MSGPACK_OBJECT_ARRAY || get_int(info, "host", -1) != b->seat)
        return;
    if (!is(info, "state", "waiting") || get_int(info, "games", -1) == b->started || b->done >= b->games)
        return;
    for (uint32_t i = 0; i < seats->via.array.size; i++)
        if (is(&seats->via.array.ptr[i], "kind", "vacant"))
            return;
    b->started = get_int(info, "games", -1);
    request(b, "start");
}

/* After welcome, without a seat: the table asked for, a new one, or the first open one. */
static void find_a_seat(struct bot *b)
{
    struct message m;
    if (b->table_wanted >= 0) {
        begin(&m, "join", 2);
        add_int(&m, "id", b->seat_id = b->next_id++);
        add_int(&m, "table", b->table_wanted);
    } else if (b->creating) {
        begin(&m, "create", 2);
        add_int(&m, "id", b->seat_id = b->next_id++);
        pack_str(&m.pk, "options");
        msgpack_pack_map(&m.pk, 2 + (b->create != NULL) + (b->deck != 0));
        if (b->create)
            add_str(&m, "game", b->create);
        add_int(&m, "players", b->players);
        add_int(&m, "bots", b->bots >= 0 ? b->bots : b->players - 1);
        if (b->deck)
            add_int(&m, "deck", b->deck);
    } else {
        begin(&m, "list", 2);
        add_int(&m, "id", b->next_id++);
        add_bool(&m, "open", true);
    }
    finish(b, &m);
}

static void on_turn(struct bot *b, const msgpack_object *msg)
{
    int64_t seq = get_int(msg, "seq", -1);
    const msgpack_object *options = get(msg, "options");
    if (seq == b->acted_seq || !options || options->type != MSGPACK_OBJECT_ARRAY || options->via.array.size == 0)
        return;  /* answered already (rule 3), or nothing honest to do now (durak: wait) */
    /* a payment is a turn whose options are all {"type": "give", "card": ...}: same thing */
    const msgpack_object *choice = &options->via.array.ptr[rand() % options->via.array.size];
    struct message m;
    begin(&m, "act", 3);
    b->acted_id = b->next_id++;
    b->acted_seq = seq;
    add_int(&m, "id", b->acted_id);
    add_int(&m, "seq", seq);
    pack_str(&m.pk, "action");
    msgpack_pack_object(&m.pk, *choice);
    finish(b, &m);
}

static void on_event(struct bot *b, const msgpack_object *msg)
{
    const msgpack_object *e = get(msg, "event");
    int64_t seq = get_int(msg, "seq", -1);
    struct message m;
    if (is(e, "type", "court") && holds(e, "voters", b->seat)) {  /* rule 4: no id, no ok comes back */
        begin(&m, "vote", 2);
        add_bool(&m, "guilty", rand() % 2);
        add_int(&m, "seq", seq);
        finish(b, &m);
    } else if (is(e, "type", "results")) {
        const msgpack_object *r = get(e, "result");
        const msgpack_object *order = get(r, "order");
        printf("game %lld over: ", (long long)get_int(e, "number", 0));
        if (get_int(r, "loser", -1) >= 0)
            printf("loser: seat %lld; order [", (long long)get_int(r, "loser", -1));
        else
            printf("a draw; order [");
        for (uint32_t i = 0; order && order->type == MSGPACK_OBJECT_ARRAY && i < order->via.array.size; i++)
            printf("%s%lld", i ? ", " : "", (long long)order->via.array.ptr[i].via.i64);
        printf("]; I am seat %lld\n", (long long)b->seat);
        fflush(stdout);
        b->done++;
    }
}

/* One message from the server. */
static void handle(struct bot *b, const msgpack_object *msg)
{
    if (is(msg, "type", "welcome")) {
        if (get(msg, "token"))
            get_str(msg, "token", b->token, sizeof b->token);
        if (get_int(msg, "table", -1) < 0)
            find_a_seat(b);  /* else: back at our table; a snapshot and a turn follow */
    } else if (is(msg, "type", "tables")) {
        const msgpack_object *tables = get(msg, "tables");
        if (tables && tables->type == MSGPACK_OBJECT_ARRAY && tables->via.array.size > 0)
            b->table_wanted = get_int(&tables->via.array.ptr[0], "id", -1);
        else
            b->creating = true;  /* of the server's default game */
        find_a_seat(b);
    } else if (is(msg, "type", "joined")) {
        const msgpack_object *info = get(msg, "table");
        b->seat = get_int(msg, "seat", -1);
        if (b->creating) {
            char game[64];
            get_str(info, "game", game, sizeof game);
            printf("created table %lld (%s, %ld seats)\n", (long long)get_int(info, "id", -1), game, b->players);
        } else
            printf("joined table %lld at seat %lld\n", (long long)get_int(info, "id", -1), (long long)b->seat);
        maybe_start(b, info);
    } else if (is(msg, "type", "table")) {
        maybe_start(b, get(msg, "table"));
    } else if (is(msg, "type", "snapshot")) {
        b->seat = get_int(msg, "seat", b->seat);
    } else if (is(msg, "type", "turn") && get_int(msg, "seat", -1) == b->seat) {
        on_turn(b, msg);
    } else if (is(msg, "type", "event")) {
        on_event(b, msg);
    } else if (is(msg, "type", "error")) {
        char code[64], text[256];
        get_str(msg, "code", code, sizeof code);
        get_str(msg, "message", text, sizeof text);
        fprintf(stderr, "refused: %s: %s\n", code, text);
        if (get_int(msg, "id", -2) == b->acted_id)
            b->acted_seq = -1;  /* our last action was refused: act on the turn that follows */
        if (get_int(msg, "id", -2) == b->seat_id)
            b->refused = true;  /* no table for us (e.g. bad_options): waiting would be for ever */
        if (get(msg, "fatal") && get(msg, "fatal")->type == MSGPACK_OBJECT_BOOLEAN && get(msg, "fatal")->via.boolean)
            snprintf(b->fatal, sizeof b->fatal, "%s", code);
    } else if (is(msg, "type", "closed")) {
        b->games = b->done;  /* the table is gone: nothing more to play */
    }
}

static int play(struct bot *b)
{
    int comebacks = 3;
    msgpack_unpacked msg;
    msgpack_unpacked_init(&msg);
    if (!connect_and_hello(b)) {
        fprintf(stderr, "cannot connect to %s:%s\n", b->host, b->port);
        return 1;
    }
    while (b->done < b->games && !b->refused) {
        int got = receive(b, &msg, IDLE_PING_MS);
        if (got == 1) {
            handle(b, &msg.data);
        } else if (got == 0) {
            request(b, "ping");  /* a connection silent for 600 s is closed */
        } else {  /* gone: come back as the same player, unless that cannot help */
            close(b->fd);
            bool final = !strcmp(b->fatal, "replaced") || !strcmp(b->fatal, "version_mismatch")
                         || !strcmp(b->fatal, "unknown_token");
            if (final || !b->token[0] || comebacks-- == 0 || !connect_and_hello(b)) {
                fprintf(stderr, "connection lost%s%s\n", b->fatal[0] ? ": " : "", b->fatal);
                msgpack_unpacked_destroy(&msg);
                return 1;
            }
        }
    }
    msgpack_unpacked_destroy(&msg);
    if (b->refused) {
        close(b->fd);
        return 1;
    }
    request(b, "leave");
    close(b->fd);
    return 0;
}

static const char usage[] =
    "usage: random_bot [--host H] [--port P] [--name N] [--token T] [--table ID | --create GAME]\n"
    "                  [--players N] [--bots N] [--deck N] [--games N] [--seed N]\n"
    "GAME: a game's id (`pidor games` lists them; the server refuses one it does not have).\n"
    "Without --table or --create: the first open table, else a new table of the server's default game.\n"
    "--token: be that player again (a seat it holds is taken back: how pidor match seats a cmd: bot).\n"
    "--host, --port, --token: by default PIDOR_HOST, PIDOR_PORT, PIDOR_TOKEN (else 127.0.0.1, 7777, none);\n"
    "prefer the environment for the token: arguments show in ps.\n"
    "--games 0: play until the table closes.\n";

/* A token from an argument or PIDOR_TOKEN, or exit 2 with the usage. */
static void take_token(struct bot *b, const char *token)
{
    if (!*token || strlen(token) >= sizeof b->token) {
        fprintf(stderr, "a token is 1..%zu characters\n%s", sizeof b->token - 1, usage);
        exit(2);
    }
    strcpy(b->token, token);
}

/* A whole number from an argument, or exit 2 with the usage. */
static long number(const char *arg, long low, long high)
{
    char *end;
    long x = strtol(arg, &end, 10);
    if (*arg == '\0' || *end != '\0' || x < low || x > high) {
        fprintf(stderr, "not a number in %ld..%ld: %s\n%s", low, high, arg, usage);
        exit(2);
    }
    return x;
}

int main(int argc, char **argv)
{
    struct bot b = {.host = "127.0.0.1", .port = "7777", .name = "c-random-bot", .table_wanted = -1,
                    .players = 4, .bots = -1, .games = 1, .seat = -1, .next_id = 1, .started = -1, .seat_id = -1};
    unsigned seed = (unsigned)time(NULL);
    const char *env;
    if ((env = getenv("PIDOR_HOST")) && *env)
        b.host = env;
    if ((env = getenv("PIDOR_PORT")) && *env) {
        number(env, 1, 65535);
        b.port = env;
    }
    if ((env = getenv("PIDOR_TOKEN")) && *env)
        take_token(&b, env);
    static const struct option longs[] = {
        {"host", 1, 0, 'h'}, {"port", 1, 0, 'p'}, {"name", 1, 0, 'n'}, {"table", 1, 0, 't'},
        {"create", 1, 0, 'c'}, {"players", 1, 0, 'P'}, {"bots", 1, 0, 'b'}, {"deck", 1, 0, 'd'},
        {"games", 1, 0, 'g'}, {"seed", 1, 0, 's'}, {"token", 1, 0, 'k'}, {"help", 0, 0, '?'}, {0, 0, 0, 0}};
    for (int c; (c = getopt_long(argc, argv, "", longs, NULL)) != -1;) {
        switch (c) {
        case 'h': b.host = optarg; break;
        case 'p': number(optarg, 1, 65535); b.port = optarg; break;
        case 'n': b.name = optarg; break;
        case 't': b.table_wanted = number(optarg, 0, 1L << 30); break;
        case 'c': b.create = optarg; b.creating = true; break;
        case 'P': b.players = number(optarg, 2, 6); break;
        case 'b': b.bots = number(optarg, 0, 5); break;
        case 'd': b.deck = number(optarg, 1, 52); break;
        case 'g': b.games = number(optarg, 0, 1L << 30); break;
        case 'k': take_token(&b, optarg); break;
        case 's': seed = (unsigned)number(optarg, 0, 1L << 30); break;
        default: fputs(usage, stderr); return c == '?' && optind > 0 && !strcmp(argv[optind - 1], "--help") ? 0 : 2;
        }
    }
    if (b.games == 0)
        b.games = LONG_MAX;  /* until the table closes ("closed" ends it) */
    srand(seed);
    return play(&b);
}
