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
script=run_lapack_tester.sh
library=$1 tester=$2 input=$3 library_path=$4 expect=$5
. "$(dirname "$0")/tester_run.sh"
make_work_dir
cd "$work" || exit 1
run_tester "$tester" "$input" LD_LIBRARY_PATH="$library_path"
mv stdout summary
grep -E "passed the threshold|failed to pass|TRANS=" summary
check_tester_exit
check_calls_on_dppgemm
failed=$(grep -c "failed to pass the threshold" summary)
passed=$(grep -c "passed the threshold" summary)
case $expect in
  passes) [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ] && exit 0 ;;
  fails) [ "$failed" -gt 0 ] && exit 0 ;;
esac
echo "$script: expected the tests to $expect ($passed passed lines, $failed failed lines)" >&2
exit 1
