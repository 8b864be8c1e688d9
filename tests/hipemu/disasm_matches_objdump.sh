#!/bin/sh
# disasm_matches_objdump.sh DPPGEMM_EMU PROGRAM ARCH WORKDIR OBJCOPY BUNDLER OBJDUMP
# `dppgemm-emu disasm --arch ARCH PROGRAM` on a HIP executable must list every
# function llvm-objdump -d shows for the same code object (taken out of the
# .hip_fatbin section with llvm-objcopy and clang-offload-bundler), with each
# instruction line identical to llvm-objdump's up to its address, in order.
set -e
emu=$1 program=$2 arch=$3 work=$4 objcopy=$5 bundler=$6 objdump=$7
mkdir -p "$work"
"$objcopy" --dump-section .hip_fatbin="$work/fatbin" "$program" "$work/copy"
"$bundler" --unbundle --type=o --input="$work/fatbin" --output="$work/code.co" \
  --targets="hipv4-amdgcn-amd-amdhsa--$arch"
"$emu" disasm --arch "$arch" "$program" > "$work/ours"
"$objdump" -d --mcpu="$arch" "$work/code.co" > "$work/objdump"
tab=$(printf '\t')
grep "^$tab" "$work/ours" > "$work/ours.lines"
grep "^$tab" "$work/objdump" | sed -E 's|(// [0-9A-F]{12}):.*|\1|' > "$work/objdump.lines"
grep -v "^$tab" "$work/ours" | grep ':$' | sort > "$work/ours.names"
grep -E '^[0-9a-f]+ <[^>]+>:$' "$work/objdump" | sed -E 's/^[0-9a-f]+ <(.*)>:$/\1:/' | sort > "$work/objdump.names"
diff "$work/objdump.names" "$work/ours.names"
# Every line of ours in llvm-objdump's, in order (llvm-objdump also shows the
# padding after the last function).
only_ours=$(diff "$work/ours.lines" "$work/objdump.lines" | grep '^<' || true)
if [ -n "$only_ours" ]; then
  echo "lines not in llvm-objdump's output:"; echo "$only_ours"; exit 1
fi
echo "functions: $(wc -l < "$work/ours.names"), instructions: $(wc -l < "$work/ours.lines"), identical"
