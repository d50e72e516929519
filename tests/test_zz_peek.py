import pytest, trio
from pidor.games import GAME_IDS, game_class
from pty_play import Person, Terminal
from server_helpers import serve

@pytest.mark.parametrize("game", ["podkidnoy", "pidor"])
async def test_peek(game, tmp_path):
    clocks = [a for o in game_class(game).CLOCKS for a in ("--opt", f"{o.name}=0")]
    async with serve(seeds=f"pty-{game}-ru", logs=tmp_path) as (_server, port):
        def go():
            term = Terminal(["--port", str(port), "--name", "person", "--game", game, "--players", "3",
                             "--deck", "36", "--lang", "ru", "--bot", "builtin:random:cheat=0.2,attention=1", "--call-window", "0.05", *clocks])
            person = Person(term)
            try:
                screen = person.play()
                term.send("quit\r"); term.expect("bye|пока")
            finally:
                term.close()
            return screen
        screen = await trio.to_thread.run_sync(go)
    open(f"/tmp/vw/screen-{game}.txt", "w").write(screen)
