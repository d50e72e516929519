"""The heuristic policy: sound honest play per game, cheating, calling and voting with judgement."""
