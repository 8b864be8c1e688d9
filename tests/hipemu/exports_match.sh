#!/bin/sh
# exports_match.sh LIBAMDHIP64 HIPEMU WORKDIR
# libdppgemm-hipemu exports exactly libamdhip64's dynamic symbols, each under
# the same version node (so a preloaded hipemu binds every versioned
# reference), plus hipLaunchHostFunc (declared by ROCm 5.2's header, missing
# from its library); the weak ones are the not-provided stubs.
set -e
amd=$1 hipemu=$2 work=$3
mkdir -p "$work"
nm -D --defined-only "$amd" | awk '$2 != "A" {print $3}' | sort > "$work/libamdhip64"
nm -D --defined-only "$hipemu" | awk '$2 != "A" {print $3}' | grep -v '^hipLaunchHostFunc@@hip_5.2$' | sort > "$work/hipemu"
diff "$work/libamdhip64" "$work/hipemu"
echo "$(wc -l < "$work/hipemu") symbols, $(nm -D --defined-only "$hipemu" | grep -c ' W ') of them not-provided stubs"
