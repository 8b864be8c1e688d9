#!/bin/sh
# run_netlib_tester.sh LIBRARY TESTER INPUT ROUTINE PATTERN...: runs one of
# netlib's BLAS testers (Debian libblas-test: xblat3s, xscblat3) with LIBRARY
# preloaded, every call on dppgemm (threshold 0, log on), on a copy of INPUT in
# which only ROUTINE is tested. Passes when the tester exits 0, its summary
# (stdout and the summary file it names) has a line matching each extended
# regular expression PATTERN and none with FAIL, and the log shows calls that
# dppgemm ran.
set -u
library=$1 tester=$2 input=$3 routine=$4
shift 4
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
# The routine-selection lines are "NAME  T|F ...": F everywhere but ROUTINE.
sed -E "s/^([a-zA-Z_0-9]+ +)T /\\1F /; s/^($routine +)F /\\1T /" "$input" > "$work/input"
cd "$work" || exit 1
LD_PRELOAD=$library DPPGEMM_BLAS_THRESHOLD=0 DPPGEMM_BLAS_LOG=1 "$tester" < input > stdout 2> log
status=$?
cat stdout ./*.out 2>/dev/null > summary
cat summary
on_dppgemm=$(grep -Ec ': dppgemm (emu|hip) ' log)
echo "run_netlib_tester.sh: $on_dppgemm calls ran on dppgemm"
if [ "$status" -ne 0 ]; then
  echo "run_netlib_tester.sh: $tester exited with $status" >&2
  tail -5 log >&2
  exit 1
fi
if grep -q FAIL summary; then
  echo "run_netlib_tester.sh: a test failed" >&2
  exit 1
fi
if [ "$on_dppgemm" -eq 0 ]; then
  echo "run_netlib_tester.sh: no call ran on dppgemm" >&2
  exit 1
fi
for pattern in "$@"; do
  if ! grep -Eq -- "$pattern" summary; then
    echo "run_netlib_tester.sh: no line matches '$pattern'" >&2
    exit 1
  fi
done
