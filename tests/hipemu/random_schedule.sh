#!/bin/sh
# random_schedule.sh FIRST LAST right|wrong PROGRAM [ARGS...]
# Runs PROGRAM (preloaded with hipemu by the caller's environment) under
# DPPGEMM_EMU_SCHEDULE=random:SEED for SEED = FIRST..LAST. Each seed replays
# one schedule exactly, so the outcome is the same on every machine.
#   right: every run prints "...: correct", exits 0 and reports no finding;
#          prints "right in N of N runs" (else the first bad seed and its output).
#   wrong: the first run whose result is wrong ("...: N of M wrong", exit 1)
#          is printed as "wrong at seed S"; none by LAST fails.
first=$1; last=$2; expect=$3; shift 3
seed=$first
while [ "$seed" -le "$last" ]; do
  out=$(DPPGEMM_EMU_SCHEDULE=random:$seed "$@" 2>&1)
  status=$?
  if [ "$expect" = right ]; then
    if [ $status -ne 0 ] || ! printf '%s\n' "$out" | grep -q ": correct$" || printf '%s\n' "$out" | grep -q "finding"; then
      printf 'seed %s: exit %s\n%s\n' "$seed" "$status" "$out"
      exit 1
    fi
  elif [ $status -eq 1 ] && printf '%s\n' "$out" | grep -q " wrong$"; then
    echo "wrong at seed $seed"
    exit 0
  fi
  seed=$((seed + 1))
done
if [ "$expect" = right ]; then
  echo "right in $((last - first + 1)) of $((last - first + 1)) runs"
  exit 0
fi
echo "right in every run from seed $first to $last"
exit 1
