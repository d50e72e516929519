"""``pidor play``, the terminal client for people: ``session`` (messages and typed lines
through one loop, the ``play`` command), ``text`` (what is printed, ru/en), ``commands``
(a typed line -> one protocol request)."""
