// hello `may_call: false` and `windows: false` (PROTOCOL.md §3) against a scripted one-connection server: who
// sends it, and that the bot loop then answers no call window (the server passed for it).
import assert from "node:assert/strict";
import net from "node:net";
import { test } from "node:test";
import { Bot, Client, PROTOCOL_VERSION, decodeBody, encodeFrame } from "../pidor_client.js";
import { main } from "../random_bot.js";

// A server for one connection: each frame the client sends is recorded and given to
// `answer`, which returns the frames to send back, or null to hang up. `frames` resolves to
// what the client sent once the connection is gone.
async function scriptedServer(answer) {
  const server = net.createServer();
  const frames = new Promise((resolve) => server.once("connection", (socket) => {
    const got = [];
    let buffer = Buffer.alloc(0);
    socket.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 4 && buffer.length >= 4 + buffer.readUInt32BE(0)) {
        const msg = decodeBody(buffer.subarray(4, 4 + buffer.readUInt32BE(0)));
        buffer = buffer.subarray(4 + buffer.readUInt32BE(0));
        got.push(msg);
        const reply = answer(msg);
        if (reply === null) socket.destroy();
        else for (const m of reply) socket.write(encodeFrame(m));
      }
    });
    socket.on("close", () => {
      server.close();
      resolve(got);
    });
  }));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: server.address().port, frames };
}

const welcome = (hello) => ({ type: "welcome", id: hello.id, version: PROTOCOL_VERSION, player: 1, token: "t",
  table: null });

test("Client says may_call false in hello only when mayCall is false, windows false only when asked", async () => {
  for (const [options, declared] of [[{}, {}], [{ mayCall: true }, {}], [{ mayCall: false }, { may_call: false }],
    [{ mayCall: false, windows: false }, { may_call: false, windows: false }]]) {
    const server = await scriptedServer((msg) => [welcome(msg)]);
    const client = new Client({ port: server.port, ...options });
    await client.connect();
    client.close();
    const [hello] = await server.frames;
    const { id, ...fields } = hello;
    assert.deepEqual(fields, { type: "hello", version: PROTOCOL_VERSION, name: "js-bot", ...declared });
  }
  assert.throws(() => new Client({ windows: false }), /windows: false needs mayCall: false/);
});

for (const mayCall of [true, false]) {
  test(`Bot.run ${mayCall ? "passes in the call window it owes" : "answers no call window after may_call false"}`,
    async () => {
      const pushes = [
        { type: "snapshot", seq: 4, seat: 0, view: {} },
        { type: "event", seq: 5, event: { type: "window", seat: 1, owing: [0, 2], deadline: 2 } },
        { type: "event", seq: 6, event: { type: "results", number: 1, result: { loser: 1, order: [0, 2], draw: false } } },
      ];
      const server = await scriptedServer((msg) => {
        if (msg.type === "hello") return [welcome(msg), ...pushes];
        return msg.type === "ping" ? [{ type: "pong", id: msg.id }] : [];
      });
      const client = new Client({ port: server.port, mayCall });
      await client.connect();
      assert.equal((await new Bot().run(client)).length, 1);
      await client.request("ping"); // everything sent before it has arrived
      client.close();
      const sent = (await server.frames).map(({ id, ...fields }) => fields);
      const answers = mayCall ? [{ type: "pass", seq: 5 }] : [];
      assert.deepEqual(sent.slice(1), [...answers, { type: "ping" }]);
    });
}

test("random_bot.js declares may_call and windows false when it never calls (--call 0, the default), not otherwise",
  async () => {
  for (const [args, declared] of [[[], false], [["--call", "0"], false], [["--call", "0.02"], undefined]]) {
    const server = await scriptedServer(() => null); // hangs up at hello: the bot ends with an error
    const err = [];
    assert.equal(await main(["--port", String(server.port), ...args], () => {}, (line) => err.push(line)), 1);
    assert.match(err.join("\n"), /^error: the server closed the connection/);
    const [hello] = await server.frames;
    assert.equal(hello.type, "hello");
    assert.equal(hello.may_call, declared, args.join(" "));
    assert.equal("may_call" in hello, declared !== undefined);
    assert.equal(hello.windows, declared, args.join(" "));
    assert.equal("windows" in hello, declared !== undefined);
  }
});

test("Bot.mayCall says whether onWindow is overridden; RandomBot's, whether it may call", async () => {
  const { RandomBot } = await import("../random_bot.js");
  class Caller extends Bot {
    onWindow() { return true; }
  }
  assert.equal(new Bot().mayCall(), false);
  assert.equal(new Caller().mayCall(), true);
  assert.equal(new RandomBot({ call: 0 }).mayCall(), false);
  assert.equal(new RandomBot({ call: 0.1 }).mayCall(), true);
});
