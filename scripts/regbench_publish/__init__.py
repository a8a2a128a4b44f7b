"""regbench_publish: the published reports (reports/), measured and rendered afresh; above both other packages.

Publishing orchestrates the whole project: it builds, runs regbench here and
in the QEMU guests, and renders with scripts/report and scripts/results.  So
it stands above regbench_report and regbench_results (which stand side by
side on regbench_base and never import each other) and may use either;
neither imports it.  scripts/publish is its command line (publish.main).
"""
