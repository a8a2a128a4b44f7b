"""regbench_results: regbench runs of many machines in one store, and what is drawn from it.

A run file becomes a row of `runs` and rows of `results`, `labels` and
`histograms` (runfile, through regbench_base.model, the one reader of result
files); the store is SQLite or PostgreSQL with one versioned schema (sql, each
column declared once; store; upgrade brings older stores to it); query chooses
runs and benchmarks by the filters every command takes.  reference builds the
cross-machine table, from each column's cells (cells, kept in step by every
change of runs) where it can, and render writes it as Markdown and SVG;
latency merges lat/ histograms, from each machine's merged rows (merged, kept
in step the same way) where it can; history follows a benchmark on one machine
over time and finds regressions (alerts), charts draws it; curate deletes,
prunes and retags; export and bmf write results for other tools.
scripts/results is the command line (cli).

For a program that draws from the store (the static site): query.select or
query.Selection(query.all_runs(store), patterns) chooses runs,
reference.build(store, selection) gives the reference table's rows and cells,
and history.series(store, selection) each (machine, target, benchmark) series.
"""
