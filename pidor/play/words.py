"""Every sentence ``pidor play`` shows, in Russian and English: session messages, events,
board labels, the server's error codes (translated here, on the client side) and the help.

Keys are the same in both languages; ``text.say`` and friends pick one. A test checks that
both languages have the same keys and the same ``{fields}``.
"""

from __future__ import annotations

__all__ = ["BOARD", "ERRORS", "EVENTS", "HELP", "HELP_ACTIONS", "TEXTS", "WORDS"]

TEXTS = {
    "en": {
        "you": "you",
        "hand": "your hand: {cards}",
        "welcome": "player {player} at {server}",
        "token": "your token (use --token to come back): {token}",
        "back": "back at table {table}",
        "created": "table {table}: {game}, {players} seats; you are seat {seat}",
        "joined": "joined table {table} at seat {seat}",
        "seats": "seats: {seats}",
        "waiting": "waiting for the host to start ({free} free seat(s))",
        "host_now": "you are the host now: `bot SEAT` fills a free seat with a bot, `start` starts the game",
        "host_free": "free seats: {seats}; fill them with `bot SEAT [SPEC]`, then `start`",
        "host_start": "every seat is taken: `start` starts the game",
        "your_turn": "your turn{clock}:",
        "seconds": "{n} s",
        "clock": "⏱ the game clock: {left} left",
        "no_options": "no honest action right now (you may still act: махлёж is allowed)",
        "window_you": "⚑ {what}: [!] «пидор!» · [space] let it go{clock}",
        "window_line": "⚑ {what}: `call` («пидор!») or wait{clock}",
                "called_first": "⚑ {caller} called first: nothing to call now",
        "court_vote": "⚖ your vote: [y] «пидор» (guilty) · [n] «чист» (clean){clock}",
        "court_line": "⚖ your vote: `vote pidor` or `vote clean`{clock}",
        "no_window": "no call window is open for you now",
        "no_court": "no court asks for your vote now",
        "results_host": "`start` for the next game, `quit` to leave",
        "results_wait": "waiting for the host to start the next game (`quit` to leave)",
        "error": "✗ {text}",
        "closed": "the table closed: {reason}",
        "lost": "connection lost: {why}",
        "reconnected": "reconnected",
        "bye": "bye",
        "restored": "(the state after the undo:)",
        "hint": "hint [{id}]: {text}",
        "hints_off": "hints off",
        "unknown": "unknown command {word!r}; `help` lists them",
        "usage": "usage: {usage}",
        "not_this_game": "{word!r} is not an action of {game}",
        "bad_card": "{text!r} is not a card (write it like Th, 10h or 10♥)",
        "bad_number": "{text!r} is not a number",
        "bad_rank": "{text!r} is not a rank (write it like K, 10 or T)",
        "bad_suit": "{text!r} is not a suit (write it c, d, h, s or ♣ ♦ ♥ ♠)",
        "bad_seat": "there is no seat {seat} (seats are 0..{last})",
        "bad_spec": "not a bot: {why}",
        "no_option": "there is no option {n} now",
        "no_game": "no game yet: wait for the table to start",
        "which": "say which card: {usage}",
        "bad_vote": "vote `pidor` (guilty) or `clean` (not guilty)",
        "watching": "watching table {table} (public view: nobody's hidden cards); `quit` to stop",
        "watch_only": "you are watching: only `view`, `help` and `quit` work",
    },
    "ru": {
        "you": "вы",
        "hand": "ваша рука: {cards}",
        "welcome": "игрок {player} на {server}",
        "token": "ваш токен (--token, чтобы вернуться): {token}",
        "back": "снова за столом {table}",
        "created": "стол {table}: {game}, мест {players}; ваше место {seat}",
        "joined": "вы за столом {table}, место {seat}",
        "seats": "места: {seats}",
        "waiting": "ждём, пока хозяин стола начнёт (свободных мест: {free})",
        "host_now": "теперь хозяин стола вы: `бот МЕСТО` сажает бота на свободное место, `старт` начинает партию",
        "host_free": "свободные места: {seats}; посадите ботов (`бот МЕСТО [БОТ]`), затем `старт`",
        "host_start": "все места заняты: `старт` начинает партию",
        "your_turn": "ваш ход{clock}:",
        "seconds": "{n} с",
        "clock": "⏱ до конца хода игры осталось {left}",
        "no_options": "честного хода сейчас нет (ходить всё равно можно: махлёж разрешён)",
        "window_you": "⚑ {what}: [!] «пидор!» · [пробел] пропустить{clock}",
        "window_line": "⚑ {what}: `пидор` («пидор!») или ждите{clock}",
                "called_first": "⚑ {caller} крикнул первым: кричать уже нечего",
        "court_vote": "⚖ ваш голос: [y] «пидор» (виновен) · [n] «чист»{clock}",
        "court_line": "⚖ ваш голос: `голос пидор` или `голос чист`{clock}",
        "no_window": "окна крика для вас сейчас нет",
        "no_court": "суд сейчас не ждёт вашего голоса",
        "results_host": "`старт` — следующая партия, `выход` — выйти",
        "results_wait": "ждём, пока хозяин начнёт следующую партию (`выход` — выйти)",
        "error": "✗ {text}",
        "closed": "стол закрыт: {reason}",
        "lost": "связь потеряна: {why}",
        "reconnected": "связь восстановлена",
        "bye": "пока",
        "restored": "(после отмены хода:)",
        "hint": "подсказка [{id}]: {text}",
        "hints_off": "подсказки выключены",
        "unknown": "нет такой команды: {word!r}; список — `помощь`",
        "usage": "так: {usage}",
        "not_this_game": "{word!r} — не действие игры {game}",
        "bad_card": "{text!r} — не карта (пишите Th, 10h или 10♥)",
        "bad_number": "{text!r} — не число",
        "bad_rank": "{text!r} — не ранг (пишите K, 10 или Т — туз)",
        "bad_suit": "{text!r} — не масть (пишите c, d, h, s или ♣ ♦ ♥ ♠)",
        "bad_seat": "нет места {seat} (места 0..{last})",
        "bad_spec": "такого бота нет: {why}",
        "no_option": "сейчас нет варианта {n}",
        "no_game": "партия ещё не идёт",
        "which": "какую карту? {usage}",
        "bad_vote": "голос: `голос пидор` (виновен) или `голос чист`",
        "watching": "вы смотрите стол {table} (открытый вид: чужих закрытых карт не видно); `выход` — выйти",
        "watch_only": "вы зритель: работают только `стол`, `помощь` и `выход`",
    },
}

EVENTS = {
    "en": {
        "game_start": "── game {number}: {game}, {players} players ──",
        "call": "{caller}: «пидор!» — {action}",
        "court": "⚖ court: {caller} accuses {accused}: {action}; voters: {voters}",
        "court@to_me": "⚖ court: {caller} accuses you: {action}; voters: {voters}",
        "vote": "{seat} votes {vote}",
        "abstain": "{seat} abstains (away)", "abstain@me": "you abstain (away)",
        "verdict": "verdict: {outcome}{counts}",
        "undo": "undone: {action}",
        "mark": "the mark goes to {seat} ({reason})", "mark@me": "the mark goes to you ({reason})",
        "mark_none": "nobody holds the mark ({reason})",
        "game_over": "game over: {loser}; finished in order: {order}",
        "draw_game": "a draw",
        "loser": "{seat} is {word}",
        "timeout": "{seat} ran out of time ({reason}): the server plays for them",
        "timeout@me": "you ran out of time ({reason}): the server plays for you",
        "seat": "{seat}: {state}",
        "results": "── results of game {number}: the mark is on {mark} ──",
        "results@to_me": "── results of game {number}: the mark is on you ──",
        "give": "{from_} gives {to} {card}", "give@me": "you give {to} {card}", "give@to_me": "{from_} gives you {card}",
        "out": "{seat} is out (place {place})", "out@me": "you are out (place {place})",
        "payment_due": "{from_} owes {to} a card", "payment_due@me": "you owe {to} a card",
        "payment_due@to_me": "{from_} owes you a card", "payment_due_many": "{from_} owe {to} a card each",
        "honest_only": "{seats}: honest moves only now (T6)",
        "honest_only@me": "your move was undone: move again, honestly (T6)",
        "other": "{type}: {fields}",
    },
    "ru": {
        "game_start": "── партия {number}: {game}, игроков {players} ──",
        "call": "{caller}: «пидор!» — {action}",
        "court": "⚖ суд: {caller} обвиняет {accused}: {action}; голосуют: {voters}",
        "court@to_me": "⚖ суд: {caller} обвиняет вас: {action}; голосуют: {voters}",
        "vote": "{seat}: {vote}",
        "abstain": "{seat}: воздерживается (отошёл)", "abstain@me": "вы воздерживаетесь (вы отошли)",
        "verdict": "приговор: {outcome}{counts}",
        "undo": "ход отменён: {action}",
        "mark": "метка у {seat} ({reason})", "mark@me": "метка у вас ({reason})",
        "mark_none": "метки ни у кого ({reason})",
        "game_over": "партия окончена: {loser}; вышли по порядку: {order}",
        "draw_game": "ничья",
        "loser": "{word} — {seat}",
        "timeout": "{seat}: время вышло ({reason}), за него ходит сервер",
        "timeout@me": "у вас вышло время ({reason}), за вас ходит сервер",
        "seat": "{seat}: {state}",
        "results": "── итоги партии {number}: метка у {mark} ──",
        "results@to_me": "── итоги партии {number}: метка у вас ──",
        "give": "{from_} отдаёт {to} {card}", "give@me": "вы отдаёте {to} {card}", "give@to_me": "{from_} отдаёт вам {card}",
        "out": "{seat} вышел (место {place})", "out@me": "вы вышли (место {place})",
        "payment_due": "{from_} должен {to} карту", "payment_due@me": "вы должны {to} карту",
        "payment_due@to_me": "{from_} должен вам карту", "payment_due_many": "{from_} должны {to} по карте",
        "honest_only": "{seats}: теперь только честные ходы (T6)",
        "honest_only@me": "ваш ход отменён — ходите снова честно (T6)",
        "other": "{type}: {fields}",
    },
}

#: single words: verdicts, mark reasons, seat states, bout outcomes, action words
WORDS = {
    "en": {"guilty": "guilty", "clean": "clean", "honest": "the action was honest", "tie": "a tie",
           "pidor": "«пидор»", "chist": "«чист»", "convicted": "convicted", "false_call": "false call",
           "lost_vote": "lost the vote", "loser": "lost the game", "left": "its holder is out of the game",
           "away": "away", "back": "back", "bot": "a bot plays on", "turn": "turn clock",
           "nobody": "nobody"},
    "ru": {"guilty": "виновен", "clean": "чист", "honest": "ход был честный", "tie": "поровну",
           "pidor": "«пидор»", "chist": "«чист»", "convicted": "осуждён", "false_call": "ложный «пидор!»",
           "lost_vote": "проиграл голосование", "loser": "проиграл партию",
           "left": "тот, у кого она была, вышел из игры",
           "away": "отошёл", "back": "вернулся", "bot": "за него играет бот", "turn": "вышло время хода",
           "nobody": "никого"},
}

#: labels of the board's head (``text.view_lines``; the game draws the rest)
BOARD = {
    "en": {"game": "game {number}", "trump": "trump {trump}",
           "trump_card": "trump {trump} ({card} under the deck)", "no_trump": "no trump yet",
           "deck": "deck {count}", "mark": "the mark: {seat}", "turn": "to act: {seats}",
           "window": "call window on {seat}'s action", "court": "the court sits: {caller} accuses {accused}",
           "out": "out: {seats}", "none": "—"},
    "ru": {"game": "партия {number}", "trump": "козырь {trump}",
           "trump_card": "козырь {trump} ({card} под колодой)", "no_trump": "козыря ещё нет",
           "deck": "в колоде {count}", "mark": "метка: {seat}", "turn": "ходит: {seats}",
           "window": "окно крика на ход {seat}", "court": "идёт суд: {caller} обвиняет {accused}",
           "out": "вышли: {seats}", "none": "—"},
}

#: the server's error codes (protocol/PROTOCOL.md §10) as sentences a person reads
ERRORS = {
    "en": {
        "bad_frame": "the server could not read what this client sent",
        "frame_too_large": "a message was too large",
        "too_large": "a message was too large",
        "too_deep": "a message was nested too deep",
        "version_mismatch": "this client speaks another protocol version than the server",
        "hello_timeout": "the server waited too long for the greeting",
        "idle_timeout": "nothing was sent for too long",
        "replaced": "you connected again elsewhere; this session ends",
        "shutdown": "the server is shutting down",
        "bad_request": "the server refused a malformed request",
        "unknown_type": "the server does not know this request",
        "hello_first": "the greeting must come first",
        "already_hello": "already greeted",
        "unknown_token": "the server does not know this token; come without --token",
        "bad_options": "the server refused the table's options",
        "no_table": "no such table (or it has closed)",
        "not_seated": "you have no seat at this table",
        "already_seated": "you already sit at another table",
        "table_full": "the table has no free seat",
        "seat_taken": "that seat is not free",
        "game_running": "a game is being played: wait until it ends",
        "seats_empty": "a game starts only when every seat is taken: `bot SEAT` fills one",
        "not_host": "only the host can do that",
        "busy": "the table is busy; try again",
        "server_full": "the server is full; try later",
        "rate_limited": "too many of these lately; wait a little",
        "bad_seed": "a seed is hex of at most 64 bytes",
        "unavailable": "the server cannot store this now; try later",
        "no_log": "the server cannot write this game's log; the game did not start",
        "invalid_action": "that is not an action",
        "impossible_action": "that cannot be done at a real table",
        "not_now": "not now: a call window is open, the court sits or no game runs",
        "must_play_honestly": "after a guilty verdict your next move must be honest",
        "stale": "too late: the table moved on; decide again from what follows",
        "spectators_full": "the table has as many spectators as it takes; try later",
        "unknown": "the server refused it",
    },
    "ru": {
        "bad_frame": "сервер не смог прочесть сообщение клиента",
        "frame_too_large": "сообщение слишком велико",
        "too_large": "сообщение слишком велико",
        "too_deep": "сообщение слишком глубоко вложено",
        "version_mismatch": "клиент и сервер говорят на разных версиях протокола",
        "hello_timeout": "сервер не дождался приветствия",
        "idle_timeout": "слишком долго ничего не отправлялось",
        "replaced": "вы подключились ещё раз в другом месте; этот сеанс окончен",
        "shutdown": "сервер останавливается",
        "bad_request": "сервер отклонил неверный запрос",
        "unknown_type": "сервер не знает такого запроса",
        "hello_first": "сначала нужно поздороваться",
        "already_hello": "приветствие уже было",
        "unknown_token": "сервер не знает этого токена; зайдите без --token",
        "bad_options": "сервер не принял настройки стола",
        "no_table": "такого стола нет (или он закрыт)",
        "not_seated": "у вас нет места за этим столом",
        "already_seated": "вы уже сидите за другим столом",
        "table_full": "свободных мест нет",
        "seat_taken": "это место занято",
        "game_running": "идёт партия: дождитесь конца",
        "seats_empty": "партия начинается, только когда все места заняты: `бот МЕСТО` сажает бота",
        "not_host": "это может только хозяин стола",
        "busy": "стол занят; попробуйте ещё раз",
        "server_full": "сервер переполнен; попробуйте позже",
        "rate_limited": "слишком часто; подождите немного",
        "bad_seed": "зерно — hex не длиннее 64 байт",
        "unavailable": "сервер сейчас не может это сохранить; попробуйте позже",
        "no_log": "сервер не может записать протокол партии; партия не начата",
        "invalid_action": "такого действия нет",
        "impossible_action": "за настоящим столом так не сделать",
        "not_now": "не сейчас: открыто окно крика, идёт суд или партия не идёт",
        "must_play_honestly": "после обвинительного приговора следующий ход — только честный",
        "stale": "поздно: на столе уже другое; решайте по тому, что дальше",
        "spectators_full": "у стола уже столько зрителей, сколько он берёт; попробуйте позже",
        "unknown": "сервер отказал",
    },
}

#: ``{actions}``: the game's actions (``commands.game_help``), or ``no_game`` before it starts
HELP = {
    "en": """commands (seats and table positions are numbers as shown, from 0; cards: Th, 10h, 10♥):
{actions}
  (an index in [ ] left out: the first place the card honestly goes, else the game's default)
  N               play option N of your turn's list
  in a call window:  !  «пидор!» at once · space  let it go at once (or just wait)
  in a court:        y  vote «пидор» · n  vote «чист»
  (without a keyboard: call · pass · vote pidor|clean)
  view            show the table again      hint off   no more tutorial hints
  start           start the (next) game     bot SEAT [SPEC]  seat a bot (the host, between games)
  quit            leave the table and exit  help       this list
Russian words work too (крою, беру, мимо, голос чист, выход…; `--lang ru` lists them).
Any action your hands can do is accepted, honest or not: a cheat may be called.""",
    "ru": """команды (места и позиции на столе — числа, как показано, с 0; карты: Th, 10h, 10♥):
{actions}
  (номер в [ ] можно не писать: карта ляжет на первое место, куда идёт честно)
  N                сыграть вариант N из списка вашего хода
  в окне крика:    !  «пидор!» сразу · пробел  пропустить сразу (или просто ждать)
  в суде:          y  голос «пидор» · n  голос «чист»
  (без клавиатуры: пидор · мимо · голос пидор|чист)
  стол             показать стол ещё раз       подсказки выкл  без подсказок
  старт            начать (следующую) партию   бот МЕСТО [БОТ]  посадить бота (хозяин, между партиями)
  выход            встать из-за стола и выйти  помощь          эта справка
Английские слова тоже работают (cover, take, pass, vote clean, quit…; их список — с `--lang en`).
Принимается любой ход, который можно сделать руками, честный или нет: махлёж могут поймать.""",
}
#: the help's ``{actions}``: its head, and what stands there before a game starts
HELP_ACTIONS = {
    "en": {"head": "  {game} (the action, then its other words):", "no_game": "  a game's actions are listed here once it starts"},
    "ru": {"head": "  {game} (действие, затем другие слова для него):",
           "no_game": "  действия игры будут здесь, когда партия начнётся"},
}
