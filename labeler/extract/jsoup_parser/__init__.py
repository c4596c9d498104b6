"""Pure-Python port of jsoup 1.15.3's HTML parser (tokeniser and tree builder)."""
