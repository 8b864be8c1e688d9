#!/bin/sh
# Every ctest of the build is named "<area>: <what it checks>", <area> being a
# folder of tests/ that registers tests (one with a CMakeLists.txt): the area,
# a colon, one space, then the name's first word. Prints each name outside the
# scheme and fails if there is one.
# Usage: check_test_names.sh <ctest> <build dir> <tests source dir>
set -eu
ctest=$1 build=$2 tests=$3
areas=$(cd "$tests" && for d in */; do d=${d%/}; [ "$d" != support ] && [ -f "$d/CMakeLists.txt" ] && echo "$d"; done)
listing=$("$ctest" --test-dir "$build" -N)
names=$(printf '%s\n' "$listing" | sed -n 's/^ *Test *#[0-9]*: //p')
[ -n "$names" ] || { echo "no tests listed by $ctest -N in $build"; exit 1; }
pattern="^($(printf '%s\n' "$areas" | paste -sd'|')): [^ ]"
bad=$(printf '%s\n' "$names" | grep -Ev "$pattern" || true)
count=$(printf '%s\n' "$names" | wc -l)
if [ -n "$bad" ]; then
  printf 'named outside "<area>: ...", <area> one of: %s\n' "$(printf '%s\n' "$areas" | paste -sd' ')"
  printf '%s\n' "$bad" | sed 's/^/  /'
  exit 1
fi
echo "$count tests, each named <area>: ..."
