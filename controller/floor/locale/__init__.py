"""Message catalogues of the floor screen (JSON, one file per language)."""
