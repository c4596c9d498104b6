"""Human-readable score and comparison reports: text tables, Markdown, self-contained HTML."""
