// Whole games against a real server, started by the test: `python -m pidor.cli serve` on a
// free port (PIDOR_PYTHON names the interpreter; default: the repository's .venv, else
// python3). The server is stopped after the tests, whatever happens.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";
import { main } from "../random_bot.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const venv = join(root, ".venv", "bin", "python");
const python = process.env.PIDOR_PYTHON ?? (existsSync(venv) ? venv : "python3");
let server;
let port;
let data;
// Every game and deck size of the server's registry (`pidor games --json`), three players
// where the game allows them.
const games = JSON.parse(execFileSync(python, ["-m", "pidor.cli", "games", "--json"],
  { cwd: root, env: { ...process.env, PYTHONPATH: root } }));
const tables = games.flatMap((g) => g.decks.map((deck) => [g.id, deck, g.players.includes(3) ? 3 : g.players[0]]));

before(async () => {
  data = mkdtempSync(join(tmpdir(), "pidor-js-"));
  // (a table for every game and deck, and more, from one address: above the default rate)
  server = spawn(python, ["-m", "pidor.cli", "serve", "--port", "0", "--data", data, "--tables-per-minute", "1000"], {
    cwd: root, env: { ...process.env, PYTHONPATH: root }, stdio: ["ignore", "ignore", "pipe"],
  });
  port = await new Promise((resolve, reject) => {
    let said = "";
    server.stderr.on("data", (chunk) => {
      said += chunk;
      const m = /listening on [^ ]+:(\d+)/.exec(said);
      if (m) resolve(Number(m[1]));
    });
    server.on("exit", (code) => reject(new Error(`the server exited (${code}): ${said}`)));
    server.on("error", reject);
  });
});

after(() => {
  server?.kill();
  rmSync(data, { recursive: true, force: true });
});

for (const [game, deck, players] of tables) {
  test(`the random bot plays a whole game of ${game} (${deck} cards)`, async () => {
    const out = [];
    const code = await main(["--port", String(port), "--create", game, "--players", String(players), "--deck",
      String(deck), "--seed", "7"], (line) => out.push(line));
    assert.equal(code, 0, out.join("\n"));
    assert.match(out.join("\n"), new RegExp(`created table \\d+ \\(${game}, ${players} seats, ${players - 1} bots\\)`));
    assert.match(out.at(-1), /^game 1 over: (a draw|loser: seat \d)/);
  });
}

test("a bot that cheats and calls plays to the end; refusals are not fatal", async () => {
  const out = [];
  const code = await main(["--port", String(port), "--create", tables[0][0], "--players", String(tables[0][2]), "--games", "2",
    "--cheat", "0.3", "--call", "0.3", "--seed", "3"], (line) => out.push(line));
  assert.equal(code, 0, out.join("\n"));
  assert.equal(out.filter((line) => line.startsWith("game ")).length, 2);
});

test("bad arguments get the usage on stderr and exit status 2", async () => {
  const out = [];
  const err = [];
  assert.equal(await main(["--cheat", "2"], (line) => out.push(line), (line) => err.push(line)), 2);
  assert.match(err[0], /--cheat must be a number in 0..1/);
  assert.deepEqual(out, []);
});
