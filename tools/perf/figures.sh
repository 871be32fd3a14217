#!/usr/bin/env bash
# Runs the benchmark command of every row of docs/performance.md (the
# last column's first backquoted command), one after another, and prints
# what each measured, headed by the date, the commit and the load average.
# Run it from the repository's root on an idle machine, then update the
# page's "measured" column from its output:
#
#   tools/perf/figures.sh              # every row (about an hour on 2 cores)
#   tools/perf/figures.sh 'fleet table'    # the rows whose figure contains that text
set -euo pipefail
cd "$(dirname "$0")/../.."
filter=${1:-}
echo "# figures $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(go version | cut -d' ' -f3-4), load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
grep '^| ' docs/performance.md | tail -n +2 | while IFS= read -r row; do
	figure=$(printf '%s' "$row" | cut -d'|' -f2 | sed 's/^ *//; s/ *$//')
	case "$figure" in *"$filter"*) ;; *) continue ;; esac
	cmd=$(printf '%s' "$row" | grep -o '`go test[^`]*`' | head -1 | tr -d '`' | sed 's/\\|/|/g')
	[ -n "$cmd" ] || continue
	echo
	echo "## $figure"
	echo "\$ $cmd"
	# The benchmarks' own lines: name, iterations and every metric.
	eval "$cmd" 2>&1 | grep -E '^(Benchmark|ok|FAIL|---)' || true
done
