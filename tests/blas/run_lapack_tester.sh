#!/bin/sh
# run_lapack_tester.sh LIBRARY TESTER INPUT LIBRARY_PATH passes|fails: runs one
# of LAPACK's testers (Debian liblapack-test: xlintsts) on INPUT with LIBRARY
# preloaded, every SGEMM with work on dppgemm (threshold 0, log on), and
# netlib's LAPACK and BLAS from LIBRARY_PATH (so that LAPACK's SGEMM calls go
# through sgemm_, not inside another BLAS). "passes": the tester exits 0, says
# every test passed the threshold and none failed; "fails": it exits 0 and
# reports tests that failed the threshold. Either way calls must have run on
# dppgemm.
set -u
library=$1 tester=$2 input=$3 library_path=$4 expect=$5
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
LD_LIBRARY_PATH=$library_path LD_PRELOAD=$library DPPGEMM_BLAS_THRESHOLD=0 DPPGEMM_BLAS_LOG=1 \
  "$tester" < "$input" > summary 2> log
status=$?
grep -E "passed the threshold|failed to pass|TRANS=" summary
on_dppgemm=$(grep -Ec ': dppgemm (emu|hip) ' log)
echo "run_lapack_tester.sh: $on_dppgemm calls ran on dppgemm"
if [ "$status" -ne 0 ]; then
  echo "run_lapack_tester.sh: $tester exited with $status" >&2
  tail -5 log >&2
  exit 1
fi
if [ "$on_dppgemm" -eq 0 ]; then
  echo "run_lapack_tester.sh: no call ran on dppgemm" >&2
  exit 1
fi
failed=$(grep -c "failed to pass the threshold" summary)
passed=$(grep -c "passed the threshold" summary)
case $expect in
  passes) [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ] && exit 0 ;;
  fails) [ "$failed" -gt 0 ] && exit 0 ;;
esac
echo "run_lapack_tester.sh: expected the tests to $expect ($passed passed lines, $failed failed lines)" >&2
exit 1
