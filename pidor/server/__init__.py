"""The match server (trio): listener, connections, lobby, table tasks, SQLite store.

``pidor serve`` runs it (:mod:`pidor.server.command`); :class:`pidor.server.app.Server`
is the object tests and benchmarks start in their own nursery.
"""
