#pragma once
// The dppgemm-emu subcommands, each a function of its parsed options so that
// main.cpp only parses and tests can call a command directly.
//
// Exit codes: 0 success, 1 the kernel faulted (run), 2 usage error: bad
// option, unreadable or malformed code object, unknown kernel, argument
// binding that does not match the kernel's metadata.

#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "emu/exec/dispatch.hpp"

namespace dppgemm::emu::tools {

inline constexpr int exit_ok = 0;
inline constexpr int exit_kernel_fault = 1;
inline constexpr int exit_usage = 2;

inline constexpr std::uint64_t max_watchdog = std::uint64_t{1} << 48;

struct InfoOptions {
    std::string code_object;
    std::optional<std::string> arch;  // which code object of a bundle or HIP executable
};

struct DisasmOptions {
    std::string code_object;
    std::optional<std::string> arch;
    std::optional<std::string> kernel;  // all kernels when absent
};

// `name=value` pairs as typed; resolved against the metadata by resolve_launch().
struct Assignment {
    std::string name;  // argument name from the metadata, or its position "0", "1", ...
    std::string value;
};

struct RunOptions {
    std::string code_object;
    std::optional<std::string> arch;
    std::string kernel;
    std::array<std::uint32_t, 3> grid{1, 1, 1};   // workgroups per dimension
    std::array<std::uint32_t, 3> block{1, 1, 1};  // work-items per workgroup
    std::vector<Assignment> args;                 // --arg NAME=VALUE
    std::vector<Assignment> buffers;              // --buffer NAME=BYTES | NAME=@FILE
    std::vector<Assignment> dumps;                // --dump NAME=FILE
    std::optional<std::string> json;              // --json FILE
    unsigned threads = 0;                         // 0: all host cores
    // Instructions per wave before an "endless loop" fault; 0: none.
    std::uint64_t watchdog = default_watchdog;  // the executor's (emu/exec/dispatch.hpp)
    bool check = true;                          // --no-check: run without the checkers (emu/check/)
    Schedule schedule;                          // --schedule
    // --model: also the modeled time of the launch on the target (emu/timing),
    // from traces of its representative workgroups; --model-only: only those
    // workgroups run (buffers and counters are then partial).
    bool model = false, model_only = false;
    std::string model_params;  // --model-params: name=value,... or @FILE
};

struct ExecOptions {
    std::vector<std::string> command;  // the program and its arguments
    bool check = true;                 // --no-check: DPPGEMM_HIPEMU_CHECK=0
};

int info_command(const InfoOptions& options, std::ostream& out, std::ostream& err);
int disasm_command(const DisasmOptions& options, std::ostream& out, std::ostream& err);
int run_command(const RunOptions& options, std::ostream& out, std::ostream& err);
int exec_command(const ExecOptions& options, std::ostream& out, std::ostream& err);

}  // namespace dppgemm::emu::tools
