// A small client for the pidor match server, protocol `pidor/2` (protocol/PROTOCOL.md).
// Node >= 20; msgpack through @msgpack/msgpack, nothing else.
//
// Three layers, each usable alone:
//   encodeFrame / decodeBody: framing and the codec with the document's limits (§1);
//   Client: hello and token, lobby and game requests, a queue of what the server sent;
//   Bot: a loop that calls your callbacks (turn, payment, call window, court) and sends
//        what they return, acting once per turn seq and again only after a refusal (§5).

import net from "node:net";
import { Decoder, Encoder } from "@msgpack/msgpack";

export const PROTOCOL_VERSION = "pidor/2";
export const LIMITS = Object.freeze({
  MAX_FRAME: 65536, MAX_DEPTH: 16, MAX_ARRAY: 1024, MAX_MAP: 256, MAX_STR: 16384, MAX_BIN: 4096,
});
// Fatal errors after which coming back with the token makes no sense.
const FINAL = new Set(["replaced", "version_mismatch", "unknown_token"]);

// A frame that breaks §1; `code` is the document's code, `local` true for one we were about to send.
export class ProtocolError extends Error {
  constructor(code, message, local = false) {
    super(`${code}: ${message}`);
    this.code = code;
    this.local = local;
  }
}

// The server answered `error` (`msg` holds it: code, message, rule, fatal).
export class ServerError extends Error {
  constructor(msg) {
    super(`${msg.code}: ${msg.message}`);
    this.msg = msg;
    this.code = msg.code;
  }
}

// The connection is gone; `fatal` is the fatal error the server sent before, if any.
export class ConnectionClosed extends Error {
  constructor(message, fatal = null) {
    super(fatal ? `${message}: ${fatal.code}` : message);
    this.fatal = fatal;
  }
}

// The table closed under us (`reason`: empty, abandoned, shutdown, internal_error).
export class TableClosed extends Error {
  constructor(msg) {
    super(`table ${msg.table} closed: ${msg.reason}`);
    this.reason = msg.reason;
  }
}

// --- codec (§1) ----------------------------------------------------------------------------

const utf8 = new TextDecoder("utf-8", { fatal: true });
const noExtensions = {
  tryToEncode: () => null,
  decode: () => { throw new ProtocolError("bad_frame", "ext types are not allowed"); },
};
const decoderOptions = {
  extensionCodec: noExtensions,
  // every map key through a strict UTF-8 decoder, and only strings
  keyDecoder: { canBeCached: () => true, decode: (bytes, at, n) => utf8.decode(bytes.subarray(at, at + n)) },
  mapKeyConverter: (key) => {
    if (typeof key !== "string") throw new ProtocolError("bad_frame", "a map key is not a string");
    return key;
  },
  maxStrLength: LIMITS.MAX_STR, maxBinLength: LIMITS.MAX_BIN,
  maxArrayLength: LIMITS.MAX_ARRAY, maxMapLength: LIMITS.MAX_MAP,
};
const decoder = new Decoder(decoderOptions);
// The same with string values left as bytes: their UTF-8 is checked strictly (the library's
// own decoding of values is lenient). Map keys are checked by keyDecoder above.
const rawDecoder = new Decoder({ ...decoderOptions, rawStrings: true, maxBinLength: LIMITS.MAX_STR });
const encoder = new Encoder({ extensionCodec: noExtensions, ignoreUndefined: true });

function checkTree(value, raw, depth) {
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new ProtocolError("bad_frame", "NaN and infinite floats are not allowed");
  }
  if (typeof value === "string") utf8.decode(raw); // throws on bytes that are not UTF-8
  if (value === null || typeof value !== "object" || value instanceof Uint8Array) return;
  if (depth > LIMITS.MAX_DEPTH) throw new ProtocolError("too_deep", `nesting deeper than ${LIMITS.MAX_DEPTH}`);
  for (const [k, v] of Object.entries(value)) checkTree(v, raw[k], depth + 1);
}

// One frame's body (without its 4-byte length) -> the message map; ProtocolError otherwise.
export function decodeBody(body) {
  let msg;
  try {
    msg = decoder.decode(body);
    if (msg === null || typeof msg !== "object" || Array.isArray(msg) || msg instanceof Uint8Array) {
      throw new ProtocolError("bad_frame", "the body is not a map");
    }
    checkTree(msg, rawDecoder.decode(body), 1);
  } catch (e) {
    if (e instanceof ProtocolError) throw e;
    const code = /Max length exceeded/.test(e.message) ? "too_large" : "bad_frame";
    throw new ProtocolError(code, e.message);
  }
  return msg;
}

// One frame: the 4-byte big-endian length and the msgpack map.
export function encodeFrame(msg) {
  const body = encoder.encode(msg);
  if (body.length > LIMITS.MAX_FRAME) {
    throw new ProtocolError("frame_too_large", `a body of ${body.length} bytes`, true);
  }
  const frame = Buffer.alloc(4 + body.length);
  frame.writeUInt32BE(body.length, 0);
  frame.set(body, 4);
  return frame;
}

// --- one connection --------------------------------------------------------------------------

class Connection {
  constructor(socket) {
    this.socket = socket;
    this.buffer = Buffer.alloc(0);
    this.queue = []; // decoded messages not yet taken
    this.waiting = null; // {resolve, reject} of a receive() in progress
    this.ended = null; // why no more messages will come
    this.fatal = null; // the fatal error the server sent, if any
    socket.setNoDelay(true);
    socket.on("data", (chunk) => this.#data(chunk));
    socket.on("error", () => {});
    socket.on("close", () => this.#end(new ConnectionClosed("the server closed the connection", this.fatal)));
  }

  static open(host, port) {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host, port });
      socket.once("connect", () => resolve(new Connection(socket)));
      socket.once("error", reject);
    });
  }

  send(msg) {
    if (this.ended) throw this.ended;
    this.socket.write(encodeFrame(msg));
  }

  // The next message, or null after `timeout` ms without one.
  receive(timeout = null) {
    if (this.queue.length) return Promise.resolve(this.queue.shift());
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => {
      const timer = timeout === null ? null : setTimeout(() => { this.waiting = null; resolve(null); }, timeout);
      this.waiting = {
        resolve: (m) => { clearTimeout(timer); resolve(m); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      };
    });
  }

  close() {
    this.socket.destroy();
  }

  #data(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    try {
      while (this.buffer.length >= 4) {
        const n = this.buffer.readUInt32BE(0);
        if (n > LIMITS.MAX_FRAME) throw new ProtocolError("frame_too_large", `a frame of ${n} bytes announced`);
        if (this.buffer.length < 4 + n) break;
        const msg = decodeBody(this.buffer.subarray(4, 4 + n));
        this.buffer = this.buffer.subarray(4 + n);
        if (msg.type === "error" && msg.fatal) this.fatal = new ServerError(msg);
        this.#deliver(msg);
      }
    } catch (e) {
      this.#end(e);
      this.socket.destroy();
    }
  }

  #deliver(msg) {
    const w = this.waiting;
    if (w) {
      this.waiting = null;
      w.resolve(msg);
    } else {
      this.queue.push(msg);
    }
  }

  #end(error) {
    this.ended ??= error;
    const w = this.waiting;
    if (w && !this.queue.length) {
      this.waiting = null;
      w.reject(this.ended);
    }
  }
}

// --- the client (§2-§5, §9) ------------------------------------------------------------------

// Replies carry the request's id; everything else the server sends is a push.
const REPLIES = new Set(["welcome", "tables", "joined", "pong", "rules", "ok", "error"]);

export class Client {
  // `mayCall: false` says in hello that this client never calls «пидор!» (§3): its tables
  // pass every call window for it at once, and Bot.run answers no window. `windows: false`
  // (only with `mayCall: false`; minor 2) asks for no `window`/`window_closed` events at all:
  // their seq numbers are then missing from the stream.
  constructor({ host = "127.0.0.1", port = 7777, name = "js-bot", token = null, mayCall = true,
    windows = true } = {}) {
    if (mayCall && !windows) throw new Error("windows: false needs mayCall: false (§3)");
    Object.assign(this, { host, port, name, token, mayCall, windows });
    this.conn = null;
    this.nextId = 1;
    this.kept = []; // messages that arrived while a request waited for its reply
    this.posted = new Map(); // id -> request sent without waiting
    this.seat = null;
    this.table = null; // the table info (seats, host, state, game)
    this.lastSent = Date.now();
  }

  // A client for the seat `pidor match` or `pidor conform` launched this program for:
  // PIDOR_HOST, PIDOR_PORT and PIDOR_TOKEN from the environment (where unset: 127.0.0.1,
  // 7777 and a new player). With the token, connect()'s welcome names the table it is
  // seated at: no join.
  static fromEnv(options = {}) {
    const env = process.env;
    return new Client({ host: env.PIDOR_HOST || "127.0.0.1", port: Number(env.PIDOR_PORT || 7777),
      token: env.PIDOR_TOKEN || null, ...options });
  }

  // Open the connection and say hello (with the token, to be the same player again): `welcome`.
  async connect() {
    this.close();
    this.conn = await Connection.open(this.host, this.port);
    this.kept = [];
    this.posted.clear();
    const hello = { version: PROTOCOL_VERSION, name: this.name };
    if (this.token) hello.token = this.token;
    if (!this.mayCall) hello.may_call = false;
    if (!this.windows) hello.windows = false;
    const welcome = await this.request("hello", hello);
    this.token = welcome.token ?? this.token;
    return welcome;
  }

  close() {
    this.conn?.close();
    this.conn = null;
  }

  // A request without id: no `ok` comes back (for `pass` and `vote`).
  send(type, fields = {}) {
    this.conn.send({ type, ...fields });
    this.lastSent = Date.now();
  }

  // A request with a fresh id, not waited for; its `ok` is dropped, its `error` comes out
  // of receive() with `request` set.
  post(type, fields = {}) {
    const id = this.nextId++;
    const msg = { type, id, ...fields };
    this.conn.send(msg);
    this.lastSent = Date.now();
    this.posted.set(id, msg);
    return id;
  }

  // Send and wait for the reply; ServerError on `error`.
  async request(type, fields = {}) {
    const id = this.nextId++;
    this.conn.send({ type, id, ...fields });
    this.lastSent = Date.now();
    for (;;) {
      const msg = await this.conn.receive(30000);
      if (msg === null) throw new Error(`no reply to ${type} within 30 s`);
      if (msg.id === id && REPLIES.has(msg.type)) {
        if (msg.type === "error") throw new ServerError(msg);
        this.#learn(msg);
        return msg;
      }
      this.kept.push(msg);
    }
  }

  // The next message for the application (null after `timeout` ms); `ok` replies to post()
  // are dropped, `error` replies get `request`.
  async receive(timeout = null) {
    for (;;) {
      const msg = this.kept.length ? this.kept.shift() : await this.conn.receive(timeout);
      if (msg === null) return null;
      if (msg.id != null && REPLIES.has(msg.type) && this.posted.has(msg.id)) {
        const request = this.posted.get(msg.id);
        this.posted.delete(msg.id);
        if (msg.type === "ok") continue;
        return { ...msg, request };
      }
      this.#learn(msg);
      return msg;
    }
  }

  #learn(msg) {
    if (msg.type === "joined") [this.seat, this.table] = [msg.seat, msg.table];
    else if (msg.type === "snapshot") [this.seat, this.table] = [msg.seat, msg.info ?? this.table];
    else if (msg.type === "table" && (!this.table || msg.table?.id === this.table.id)) this.table = msg.table;
  }

  listTables(fields = {}) { return this.request("list", fields); }
  create(options) { return this.request("create", { options }); }
  join(table) { return this.request("join", { table }); }
  leave() { return this.request("leave"); }
  // Game requests name the seq they were decided on (§5 "Acting on what you saw").
  act(action, seq) { return this.post("act", { action, seq }); }
  call(seq) { return this.post("call", { seq }); }
  pass(seq) { this.send("pass", { seq }); }
  vote(guilty, seq) { this.send("vote", { guilty: Boolean(guilty), seq }); }
}

// --- the bot loop ------------------------------------------------------------------------------

// Override the on* methods, then `await new MyBot().run(client)`.
export class Bot {
  // Your turn: `options` are your honest actions (may be empty in durak). Return an action
  // (one outside `options` is a cheat, T1), or null to wait. `honestOnly`: you were
  // convicted, your next action must be honest (T6).
  onTurn(options, turn, honestOnly) { return options[0] ?? null; }
  // A turn whose options are all `give` (a payment, D12/P10).
  onPayment(options, turn) { return this.onTurn(options, turn, true); }
  // A call window you owe an answer in (`event.seat` acted, `event.action`): true calls.
  // Not asked when the client said `mayCall: false`: the server has passed for you.
  onWindow(event) { return false; }
  // Whether onWindow can ever answer true (by default: whether the class overrides it).
  // Pass it to the Client (`new Client({ ..., mayCall: bot.mayCall() })`): a bot that never
  // calls then costs its tables no round trip per action.
  mayCall() { return this.onWindow !== Bot.prototype.onWindow; }
  // A court where you vote: true «пидор», false «чист».
  onCourt(event) { return true; }
  onEvent(event, seq) {}
  onResults(event) {}
  onError(error) {}

  // Play until `games` games have ended (0: until the table closes). The host starts each
  // game once every seat is taken; a dropped connection is resumed with the token.
  async run(client, { games = 1, reconnect = 3 } = {}) {
    this.client = client;
    this.acted = null; // {id, seq} of our last action: one per turn seq (§5)
    this.honestOnly = false;
    this.started = null; // the table's game count when we sent start
    const results = [];
    while (games === 0 || results.length < games) {
      let msg;
      try {
        this.#maybeStart();
        msg = await client.receive(Math.max(0, 60000 - (Date.now() - client.lastSent)));
      } catch (e) {
        if (!(e instanceof ConnectionClosed) || reconnect-- <= 0 || FINAL.has(e.fatal?.code)) throw e;
        this.acted = null;
        await client.connect(); // the seat comes back; a snapshot and a turn follow (§9)
        continue;
      }
      if (msg === null) client.post("ping");
      else if (this.#dispatch(msg)) results.push(msg.event);
    }
    return results;
  }

  #maybeStart() {
    const t = this.client.table;
    if (!t || t.host !== this.client.seat || t.state !== "waiting" || this.started === t.games) return;
    if (t.seats.some((s) => s.kind === "vacant")) return;
    this.started = t.games;
    this.client.post("start");
  }

  #dispatch(msg) {
    const client = this.client;
    const me = client.seat;
    if (msg.type === "turn" && msg.seat === me) {
      if (this.acted?.seq === msg.seq) return false; // answered already: a repeated turn
      const options = msg.options ?? [];
      const paying = options.length > 0 && options.every((o) => o.type === "give");
      const action = paying ? this.onPayment(options, msg) : this.onTurn(options, msg, this.honestOnly);
      if (action) this.acted = { id: client.act(action, msg.seq), seq: msg.seq };
    } else if (msg.type === "error") {
      if (msg.request?.type === "act" && msg.id === this.acted?.id) this.acted = null; // refused: act again
      this.onError(msg);
    } else if (msg.type === "snapshot") {
      this.honestOnly = (msg.view?.status?.honest_only ?? []).includes(me);
    } else if (msg.type === "closed") {
      throw new TableClosed(msg);
    } else if (msg.type === "event") {
      const e = msg.event;
      this.onEvent(e, msg.seq);
      if (e.type === "window" && client.mayCall && e.owing?.includes(me) && e.seat !== me) {
        if (this.onWindow(e)) client.call(msg.seq);
        else client.pass(msg.seq);
      } else if (e.type === "court" && e.voters?.includes(me)) {
        client.vote(this.onCourt(e), msg.seq);
      } else if (e.type === "honest_only") {
        this.honestOnly = (e.seats ?? []).includes(me); // T6, D11: the table says who must play honestly
      } else if (e.type === "results") {
        this.honestOnly = false;
        this.onResults(e);
        return true;
      }
    }
    return false;
  }
}
