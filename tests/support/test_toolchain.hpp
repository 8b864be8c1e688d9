#pragma once
// The tools the tests run at test time, and the plumbing around them: the
// tools' paths (found by cmake/DppgemmTesting.cmake), running a command,
// this process's work directory, and building code objects with clang/ld.lld
// or hipcc. Every test area gets it through dppgemm_test_toolchain(<target>).
// Errors are exceptions naming the command and what it printed, so a test
// that meets one fails with the tool's own words.

#include <cstdint>
#include <string>
#include <vector>

namespace dppgemm::test_support {

// One LLVM release's tools. `mc` is empty when llvm-mc was not found (only
// the decoder corpus test uses it, and fails then).
struct LlvmTools {
    std::string clang, mc, objdump, readelf;
};
const LlvmTools& llvm15();
const LlvmTools& llvm19();
// The release that assembles and disassembles for `processor` ("gfx90a",
// "gfx90a:xnack+"): LLVM 19 for gfx942, which LLVM 15 does not know; LLVM 15,
// the project's disassembly oracle, for every other target.
const LlvmTools& llvm_for(const std::string& processor);
// ld.lld-15 links the objects of every target, LLVM 19's included.
const std::string& lld();
const std::string& hipcc();

// The project's assembled kernels (asm/):
// <dir>/<target>/dppgemm_sgemm_<variant>_<layout>.co; empty when the build
// has none (DPPGEMM_BUILD_KERNELS=OFF).
const std::string& code_object_dir();
// tests/exec/hip/<file>: the HIP sources the executor, checker and tool tests compile.
std::string hip_source(const std::string& file);
// A file of the source tree by its path from the top ("docs/host.md"), for
// tests that compare a doc with the table it shows.
std::string source_path(const std::string& relative);

// Ends the running test case as skipped, saying why on stdout: the process
// exits with the code ctest reports as "skipped" (dppgemm_discover_tests,
// cmake/DppgemmTesting.cmake). Only for inputs a build leaves out by choice;
// a missing dependency of tools/install-deps fails the test instead.
[[noreturn]] void skip_test(const std::string& why);

struct CommandResult {
    int status;          // as from std::system / pclose
    std::string output;  // what the command wrote to stdout (append 2>&1 for stderr too)
};
// Runs `command` with /bin/sh.
CommandResult run_command(const std::string& command);
// Runs `command` with /bin/sh and returns its exit code; throws
// std::runtime_error when it did not exit (a signal ended it).
int exit_code(const std::string& command);
// Runs `command` with stderr merged into the output it returns; throws
// std::runtime_error with the command and that output when it fails.
std::string run(const std::string& command);

// Runs an LLVM tool once on all of `paths` (`command` is the tool and its
// options) and returns each file's part of its stdout, in the order of
// `paths`: a part starts at the line `header(path)` that the tool prints
// before each file's output (llvm-objdump: "<path>:\tfile format ...",
// llvm-readelf: "File: <path>", only when there are several files; one
// file's part is the whole output). One process for many files, because
// starting an LLVM tool costs about 80 ms here, more than reading a kernel.
// Throws, naming the command, when the tool fails or a file's header is missing.
std::vector<std::string> run_on_files(const std::string& command, const std::vector<std::string>& paths,
                                      std::string (*header)(const std::string& path));
std::string objdump_header(const std::string& path);
std::string readelf_header(const std::string& path);

// This process's directory in the build tree (<program>.<pid>), created
// fresh on first use and removed when the process exits.
const std::string& work_dir();
// A new empty directory inside work_dir(), its name starting with `stem`.
std::string fresh_dir(const std::string& stem);

std::vector<std::uint8_t> read_bytes(const std::string& path);
void write_bytes(const std::string& path, const std::vector<std::uint8_t>& bytes);
void write_text(const std::string& path, const std::string& text);

// Assembles `source` for `processor` (clang -x assembler of llvm_for(processor));
// extra: more clang flags. Returns the ET_REL object's path, work_dir()/<name>.o.
std::string assemble_relocatable(const std::string& name, const std::string& source, const std::string& processor,
                                 const std::string& extra = "");
// The same as code object `version`, linked with ld.lld -shared: work_dir()/<name>.co.
// A kernel assembled before from the same source, processor, version, flags
// and tools comes from the kernel cache instead (kernel_cache_dirs()).
std::string assemble(const std::string& name, const std::string& source, const std::string& processor, int version,
                     const std::string& extra = "");

// Where assemble() keeps and finds assembled kernels: this build tree's
// cache first (written), then the cache of DPPGEMM_KERNELS_FROM's tree, if
// any (read only).
const std::vector<std::string>& kernel_cache_dirs();
// The path, without extension (.key, .co), of assemble()'s entry for these
// inputs in this tree's cache.
std::string kernel_cache_entry(const std::string& source, const std::string& processor, int version,
                               const std::string& extra = "");

// hipcc --cuda-device-only -O2 `flags` of the HIP source file `source_path`
// (an -O0 in `flags` wins); the code object (ELF, no offload bundle) is
// returned as its path in a fresh directory.
std::string compile_hip(const std::string& source_path, const std::string& flags);
// HIP C++ text -> code object for gfx906, work_dir()/<name>.co: v4 straight
// from hipcc; v5 through hipcc -S, clang-15 and ld.lld-15 (ROCm 5.2's own lld
// is LLVM 14, which cannot link v5).
std::string hipcc_gfx906(const std::string& name, const std::string& source, int version);

}  // namespace dppgemm::test_support
