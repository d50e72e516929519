"""The pidor bot SDK: a blocking client for protocol ``pidor/2`` (protocol/PROTOCOL.md).

There is one implementation, ``pidor/client.py`` (standard library + ``msgpack`` only, no
other ``pidor`` import). This file re-exports it:

- with the ``pidor`` package installed, from ``pidor.client``;
- in a checkout of the repository without installing, from ``../../pidor/client.py``.

Without either, copy ``pidor/client.py`` next to your bot under the name
``pidor_client.py`` (replacing this file): it works alone.
"""

from __future__ import annotations

try:
    from pidor import client as _impl
except ImportError:  # not installed: load the implementation from the checkout
    import importlib.util
    import pathlib
    import sys

    _source = pathlib.Path(__file__).resolve().parents[2] / "pidor" / "client.py"
    if not _source.is_file():
        raise ImportError("pidor_client needs the pidor package, the repository checkout, "
                          "or a copy of pidor/client.py saved as pidor_client.py") from None
    _spec = importlib.util.spec_from_file_location("pidor_client_impl", _source)
    _impl = importlib.util.module_from_spec(_spec)
    sys.modules[_spec.name] = _impl
    _spec.loader.exec_module(_impl)

__all__ = list(_impl.__all__)
globals().update({name: getattr(_impl, name) for name in __all__})
