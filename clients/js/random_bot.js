#!/usr/bin/env node
// A sample bot: plays a random honest option; with --cheat P it sometimes plays a dishonest
// variant of one (махлёж: the table may call it), with --call P it sometimes calls «пидор!».
// With --call 0 (the default) it never calls, and says so in hello (may_call false): the
// server then passes every call window for it.
//
//   node random_bot.js --host 127.0.0.1 --port 7777 --name bot1 --table 3
//   node random_bot.js --name bot1 --create podkidnoy --players 4 --bots 3 --games 5
//   node random_bot.js --cheat 0.1 --call 0.05
//   pidor match --seat "cmd:node clients/js/random_bot.js --games 0" --seat builtin:random
//   pidor conform node clients/js/random_bot.js
//
// PIDOR_HOST, PIDOR_PORT and PIDOR_TOKEN in the environment (pidor match and pidor conform
// give them) are the defaults of --host, --port and --token: with the token it is back at
// the seat it was given. Without a seat, --table or --create it joins the first open
// table, or creates a table of the server's default game with built-in bots when there is
// none. Errors go to stderr.

import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Bot, Client, TableClosed } from "./pidor_client.js";

// A small seeded generator (mulberry32), so that --seed repeats the bot's choices.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class RandomBot extends Bot {
  constructor({ seed = null, cheat = 0, call = 0, out = console.log } = {}) {
    super();
    this.random = seed === null ? Math.random : generator(seed);
    Object.assign(this, { cheat, call, out });
  }

  pick(list) {
    return list[Math.floor(this.random() * list.length)];
  }

  onTurn(options, turn, honestOnly) {
    if (!options.length) return null; // nothing honest now (durak: nothing to throw in): wait
    const honest = this.pick(options);
    if (honestOnly || this.random() >= this.cheat) return honest;
    return this.dishonest(options, honest) ?? honest;
  }

  // A variant of an honest option that is not an option: the same action with another number
  // in one of its integer fields (another stack for a card, P3; another card to beat or cover,
  // P13, D4), whatever the game. The server may find it impossible rather than dishonest;
  // then the turn comes again and we play honestly.
  dishonest(options, honest) {
    const offered = new Set(options.map((o) => JSON.stringify(o)));
    const seats = this.client.table?.seats?.length ?? 2;
    const variants = [];
    for (const [field, value] of Object.entries(honest)) {
      if (!Number.isInteger(value)) continue;
      for (let n = 0; n < Math.max(seats, 6); n++) variants.push({ ...honest, [field]: n });
    }
    const fresh = variants.filter((v) => !offered.has(JSON.stringify(v)));
    return fresh.length ? this.pick(fresh) : null;
  }

  onWindow(event) {
    return this.random() < this.call;
  }

  mayCall() {
    return this.call > 0;
  }

  onCourt(event) {
    return this.random() < 0.5; // «пидор» or «чист», at random
  }

  onError(error) {
    this.out(`refused: ${error.code}: ${error.message}`);
  }

  onResults(event) {
    const r = event.result;
    const who = r.draw ? "a draw" : `loser: seat ${r.loser} (${event.names?.[r.loser] ?? "?"})`;
    this.out(`game ${event.number} over: ${who}; order [${r.order.join(", ")}]; I am seat ${this.client.seat}`);
  }
}

const USAGE = `usage: node random_bot.js [--host H] [--port P] [--name N] [--token T]
  [--table ID | --create GAME] [--players N] [--bots N] [--deck N] [--games N] [--seed N] [--cheat P] [--call P]
GAME: a game's id (\`pidor games\` lists them; the server refuses one it does not have). Without --table or
--create: the first open table, else a new table of the server's default game.
--host, --port, --token: by default PIDOR_HOST, PIDOR_PORT, PIDOR_TOKEN (else 127.0.0.1, 7777, none);
prefer the environment for the token: arguments show in ps.`;

function options(argv) {
  const env = process.env;
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: "string", default: env.PIDOR_HOST || "127.0.0.1" },
      port: { type: "string", default: env.PIDOR_PORT || "7777" },
      name: { type: "string", default: "js-random-bot" },
      token: { type: "string", ...(env.PIDOR_TOKEN ? { default: env.PIDOR_TOKEN } : {}) },
      table: { type: "string" }, create: { type: "string" }, players: { type: "string", default: "4" },
      bots: { type: "string" }, deck: { type: "string" }, games: { type: "string", default: "1" },
      seed: { type: "string" }, cheat: { type: "string", default: "0" }, call: { type: "string", default: "0" },
      help: { type: "boolean", short: "h" },
    },
  });
  const number = (key, low, high) => {
    const x = Number(values[key]);
    if (values[key] === undefined) return undefined;
    if (!Number.isFinite(x) || x < low || x > high) throw new Error(`--${key} must be a number in ${low}..${high}`);
    return x;
  };
  if (values.create && values.table) throw new Error("give --table or --create, not both");
  return {
    help: values.help, host: values.host, port: number("port", 1, 65535), name: values.name,
    token: values.token, table: number("table", 0, 2 ** 53), create: values.create,
    players: number("players", 2, 6), bots: number("bots", 0, 5), deck: number("deck", 1, 52),
    games: number("games", 0, 1e9), seed: number("seed", 0, 2 ** 32), cheat: number("cheat", 0, 1),
    call: number("call", 0, 1),
  };
}

export async function main(argv, out = console.log, err = console.error) {
  let args;
  try {
    args = options(argv);
  } catch (e) {
    err(`${e.message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    out(USAGE);
    return 0;
  }
  const bot = new RandomBot({ seed: args.seed ?? null, cheat: args.cheat, call: args.call, out });
  const client = new Client({ host: args.host, port: args.port, name: args.name, token: args.token,
    mayCall: bot.mayCall(), windows: bot.mayCall() });
  try {
    const welcome = await client.connect();
    if (welcome.token) out(`player ${welcome.player}; token (keep it to come back): ${welcome.token}`);
    if (welcome.table !== null) {
      out(`back at table ${welcome.table}`);
    } else if (args.table !== undefined) {
      out(`joined table ${args.table} at seat ${(await client.join(args.table)).seat}`);
    } else {
      let create = Boolean(args.create);
      if (!create) {
        const open = (await client.listTables({ open: true })).tables;
        if (open.length) out(`joined table ${open[0].id} at seat ${(await client.join(open[0].id)).seat}`);
        else create = true; // of the server's default game
      }
      if (create) {
        const bots = args.bots ?? args.players - 1;
        const opts = { ...(args.create ? { game: args.create } : {}), players: args.players, bots,
          ...(args.deck ? { deck: args.deck } : {}) };
        const joined = await client.create(opts);
        out(`created table ${joined.table.id} (${joined.table.game}, ${args.players} seats, ${bots} bots)`);
      }
    }
    await bot.run(client, { games: args.games });
    await client.leave();
    return 0;
  } catch (e) {
    if (e instanceof TableClosed) {
      out(e.message);
      return 0;
    }
    err(`error: ${e.message}`);
    return 1;
  } finally {
    client.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
