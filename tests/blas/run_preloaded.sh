#!/bin/sh
# run_preloaded.sh LIBRARY PROGRAM PATTERN...: runs PROGRAM with LIBRARY in
# LD_PRELOAD and passes when it exits 0 and its output (stdout and stderr)
# has a line matching each extended regular expression PATTERN.
library=$1 program=$2
shift 2
output=$(LD_PRELOAD="$library" "$program" 2>&1)
status=$?
printf '%s\n' "$output"
if [ "$status" -ne 0 ]; then
  echo "run_preloaded.sh: $program exited with $status" >&2
  exit 1
fi
for pattern in "$@"; do
  if ! printf '%s\n' "$output" | grep -Eq -- "$pattern"; then
    echo "run_preloaded.sh: no line matches '$pattern'" >&2
    exit 1
  fi
done
