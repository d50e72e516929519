#!/usr/bin/env bash
# make test: the C bot plays a whole game of every game and deck size (`pidor games`) against a server
# started here (`python -m pidor.cli serve --port 0`; PIDOR_PYTHON names the interpreter,
# default: the repository's .venv, else python3), which is stopped on the way out.
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../.. && pwd)
python=${PIDOR_PYTHON:-$root/.venv/bin/python}
[ -x "$python" ] || python=python3
data=$(mktemp -d)
: > "$data/server.log"
# (a table for every game and deck, and more, from one address: above the default rate)
PYTHONPATH=$root "$python" -m pidor.cli serve --port 0 --data "$data" --tables-per-minute 1000 2> "$data/server.log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$data"' EXIT
port=
for _ in $(seq 100); do  # the server says where it listens within a few seconds
  port=$(sed -n 's/.*listening on [^ ]*:\([0-9]*\) .*/\1/p' "$data/server.log")
  [ -n "$port" ] && break
  kill -0 $server 2>/dev/null || { cat "$data/server.log"; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { echo "the server did not start:"; cat "$data/server.log"; exit 1; }

passed=0 failed=0
check() {  # a name, then a command whose output must match the last argument
  local name=$1 want=${*: -1} out
  out=$("${@:2:$#-2}" 2>&1) && grep -Eq "$want" <<< "$out" && { passed=$((passed + 1)); echo "ok - $name"; return; }
  failed=$((failed + 1)); echo "not ok - $name"; sed 's/^/    /' <<< "$out"
}
# game:deck:players for each game and deck size, three players where the game allows them
tables=$(PYTHONPATH=$root "$python" -m pidor.cli games --json | "$python" -c '
import json, sys
for g in json.load(sys.stdin):
    players = 3 if 3 in g["players"] else g["players"][0]
    print(*("{}:{}:{}".format(g["id"], deck, players) for deck in g["decks"]))')
for table in $tables; do
  IFS=: read -r game deck players <<< "$table"
  check "a whole game of $game, $deck cards" \
    ./random_bot --port "$port" --create "$game" --deck "$deck" --players "$players" --seed 5 "^game 1 over: "
done
first=${tables%%:*}
first_players=${tables%%[[:space:]]*}  # (the first table's game:deck:players)
first_players=${first_players##*:}
# The bot's hello, as JSON: a listener on a free port reads one frame and hangs up (the bot
# then ends: it has no token to come back with). A bot that does not connect fails it
# after 30 s.
hello_of() {
  coproc listener { PYTHONPATH=$root "$python" -c '
import json, socket, struct
from pidor.wire import decode_frame
socket.setdefaulttimeout(30)
server = socket.create_server(("127.0.0.1", 0))
print(server.getsockname()[1], flush=True)
frame = server.accept()[0].makefile("rb")
print(json.dumps(decode_frame(frame.read(struct.unpack(">I", frame.read(4))[0]))))'; }
  local at hello
  read -r at <&"${listener[0]}"
  ./random_bot --port "$at" > /dev/null 2>&1 || true
  read -r hello <&"${listener[0]}"
  wait "$listener_PID"
  echo "$hello"
}
check "hello says may_call false: it never calls (PROTOCOL.md §3)" hello_of '"type": "hello", .*"may_call": false'
check "hello says windows false: it wants no window events (PROTOCOL.md §3, minor 2)" hello_of \
  '"type": "hello", .*"may_call": false, "windows": false'
check "two games in a row at one table" ./random_bot --port "$port" --create "$first" --players "$first_players" --games 2 \
  "^game 2 over: "
check "a table the server will not create: its refusal, exit status 1" \
  bash -c './random_bot --port "$1" --create no_such_game; [ $? -eq 1 ]' _ "$port" "^refused: bad_options: "
check "without --create or an open table: a table of the server's default game" \
  ./random_bot --port "$port" --players 2 "^created table [0-9]+ \([a-z_]+, 2 seats\)"
check "bad arguments: the usage, exit status 2" bash -c './random_bot --players 9; [ $? -eq 2 ]' "usage: random_bot"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
