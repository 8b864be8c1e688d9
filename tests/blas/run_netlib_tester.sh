#!/bin/sh
# run_netlib_tester.sh LIBRARY TESTER INPUT ROUTINE PATTERN...: runs one of
# netlib's BLAS testers (Debian libblas-test: xblat3s, xscblat3) with LIBRARY
# preloaded, every call on dppgemm (threshold 0, log on), on a copy of INPUT in
# which only ROUTINE is tested. Passes when the tester exits 0, its summary
# (stdout and the summary file it names) has a line matching each extended
# regular expression PATTERN and none with FAIL, and the log shows calls that
# dppgemm ran.
set -u
script=run_netlib_tester.sh
library=$1 tester=$2 input=$3 routine=$4
shift 4
. "$(dirname "$0")/tester_run.sh"
make_work_dir
# The routine-selection lines are "NAME  T|F ...": F everywhere but ROUTINE.
sed -E "s/^([a-zA-Z_0-9]+ +)T /\\1F /; s/^($routine +)F /\\1T /" "$input" > "$work/input"
cd "$work" || exit 1
run_tester "$tester" input
cat stdout ./*.out 2>/dev/null > summary
cat summary
check_tester_exit
if grep -q FAIL summary; then
  echo "$script: a test failed" >&2
  exit 1
fi
check_calls_on_dppgemm
for pattern in "$@"; do
  if ! grep -Eq -- "$pattern" summary; then
    echo "$script: no line matches '$pattern'" >&2
    exit 1
  fi
done
