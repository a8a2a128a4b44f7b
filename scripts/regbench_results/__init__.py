"""regbench_results: regbench runs of many machines in one store, and what is drawn from it.

A run file becomes a row of `runs` and a row per benchmark in `results`
(runfile, through regbench_base.model, the one reader of result files);
the store is SQLite or PostgreSQL with one schema (sql, store); reference
builds the cross-machine table from the store and render writes it as
Markdown and SVG; bmf exports a run for dashboards.  scripts/results is the
command line (cli).
"""
