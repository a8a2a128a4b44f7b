"""regbench_report: turns regbench's Google Benchmark JSON into a report folder.

A JSON file is not a report: this package reads one or more result files
(model), lays their numbers out as the tables a reader compares
(tables), writes them as Markdown (markdown) beside SVG charts (charts),
and keeps reports/README.md an index of what was published (index).
scripts/report is the command line (cli); the tests in scripts/tests
import these modules directly.
"""
