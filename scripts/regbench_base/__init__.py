"""regbench_base: what the report (regbench_report) and the store (regbench_results) both stand on.

The one reader of result files (model, validating against the contract,
contract), a benchmark's State (state), how figures and Markdown tables are
written (text, names), lat/ histograms as distributions (distribution), the
report folder that is written all or nothing (folder) and the command lines'
parser (args).  Both packages import these; neither imports the other.
"""
