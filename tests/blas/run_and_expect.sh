#!/bin/sh
# run_and_expect.sh [--preload LIBRARY] PROGRAM PATTERN...: runs PROGRAM (with
# LIBRARY in LD_PRELOAD, for the program alone) and passes when it exits 0 and
# its output, stdout and stderr, has a line matching each extended regular
# expression PATTERN.
preload=""
if [ "$1" = "--preload" ]; then
  preload=$2
  shift 2
fi
program=$1
shift
output=$(LD_PRELOAD="$preload" "$program" 2>&1)
status=$?
printf '%s\n' "$output"
if [ "$status" -ne 0 ]; then
  echo "run_and_expect.sh: $program exited with $status" >&2
  exit 1
fi
for pattern in "$@"; do
  if ! printf '%s\n' "$output" | grep -Eq -- "$pattern"; then
    echo "run_and_expect.sh: no line matches '$pattern'" >&2
    exit 1
  fi
done
