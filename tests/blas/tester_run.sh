# Sourced by run_lapack_tester.sh and run_netlib_tester.sh, which set
# `script` (their name, for messages) and `library` (libdppgemm-blas).

# A temporary directory, removed at exit, in $work.
make_work_dir() {
  work=$(mktemp -d) || exit 1
  trap 'rm -rf "$work"' EXIT
}

# run_tester TESTER INPUT [VAR=value...]: TESTER < INPUT in the current
# directory with $library preloaded and every SGEMM with work on dppgemm
# (threshold 0, log on), the VARs set too; stdout in ./stdout, stderr (the
# log) in ./log, the exit status in $status.
run_tester() {
  tester=$1 tester_input=$2
  shift 2
  env "$@" LD_PRELOAD="$library" DPPGEMM_BLAS_THRESHOLD=0 DPPGEMM_BLAS_LOG=1 "$tester" < "$tester_input" > stdout 2> log
  status=$?
}

# Says how many calls ran on dppgemm (from ./log) and fails when the tester
# did not exit 0.
check_tester_exit() {
  on_dppgemm=$(grep -Ec ': dppgemm (emu|hip) ' log)
  echo "$script: $on_dppgemm calls ran on dppgemm"
  if [ "$status" -ne 0 ]; then
    echo "$script: $tester exited with $status" >&2
    tail -5 log >&2
    exit 1
  fi
}

# Fails when no call ran on dppgemm.
check_calls_on_dppgemm() {
  if [ "$on_dppgemm" -eq 0 ]; then
    echo "$script: no call ran on dppgemm" >&2
    exit 1
  fi
}
