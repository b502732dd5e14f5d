"""The games the core follows, one module each; `registry.GAMES` maps a game's name to its rules."""
