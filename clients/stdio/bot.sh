#!/bin/sh
# A stdio: bot in POSIX sh (protocol/STDIO.md): it plays the first honest option, lets a
# turn go when it may, votes guilty and never calls. pidor conform "stdio:sh bot.sh"
# The host writes one JSON object a line, "type" first; it answers hello, turn, pay, court.
while IFS= read -r line; do
  case $line in
    '{"type":"hello"'*) echo '{"name":"bot.sh","calls":false,"cheats":false}' ;;
    '{"type":"turn"'* | '{"type":"pay"'*)
      case $line in
        *'"may_wait":true'*) echo null ;;  # (durak: a thrower need not throw, D5)
        *) echo 0 ;;                        # the honest options come first
      esac ;;
    '{"type":"court"'*) echo true ;;
    '{"type":"quit"'*) exit 0 ;;
  esac
done
