"""pytest's setup for the whole tree: the shared test helpers (``tests/helpers.py``,
``tests/server_helpers.py``) are importable from every game folder's own tests
(``pidor/games/<folder>/tests/``)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "tests"))
