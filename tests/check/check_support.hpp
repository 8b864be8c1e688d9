#pragma once
// Test support for the checkers: run a program with a Checker attached, find
// instructions by their text, patch instruction words (mutations).

#include <functional>
#include <string>
#include <vector>

#include "emu/check/checker.hpp"
#include "kernel_builder.hpp"

namespace check_test {

using namespace dppgemm::emu;
using namespace dppgemm::emu::check;

struct Checked {
    DispatchResult result;
    std::vector<Finding> findings;
    std::string text() const;  // every finding, for failure messages
};

// Launches with a Checker attached.
Checked launch_checked(DeviceMemory& memory, const Program& program, LaunchConfig config, CheckOptions options = {});
// Runs the program on the test buffers with a Checker.
Checked run_checked(exec_test::TestRun& run, const Program& program, CheckOptions options = {});
// `run` (which sets up fresh inputs and runs checked with the options it is
// given) with the checker's fast paths and without them, watching every
// instruction and comparing every LDS access's lane addresses
// (CheckOptions::watch_every_instruction, compare_lds_patterns): the findings must be the same, in
// the same order, with the same lanes and counts (a CHECK here). Returns the
// planned run's.
Checked planned_and_every(const std::function<Checked(CheckOptions)>& run, CheckOptions options = {});
// A small kernel assembled from `body` (kernel_builder) and run checked on fresh buffers.
struct Planted {
    Program program;
    Checked checked;
    std::uint32_t pc(const std::string& prefix, unsigned n = 0) const;
};
struct PlantOptions {
    exec_test::KernelOptions kernel;
    std::array<std::uint32_t, 3> block{64, 1, 1};
    std::uint64_t watchdog = LaunchConfig{}.watchdog;
    bool drop_final_endpgm = false;  // replace the s_endpgm the builder appends by s_nop 0
};
Planted check_body(const std::string& body, const PlantOptions& options = {});

// Index of the n-th instruction (0-based) whose disassembly starts with `prefix`; throws when absent.
std::uint32_t find_inst(const Program& program, const std::string& prefix, unsigned n = 0);
// Byte offset of that instruction.
std::uint32_t pc_of(const Program& program, const std::string& prefix, unsigned n = 0);

// The kernel with the 4-byte instruction at `pc` replaced by s_nop 0.
Kernel with_nop_at(const Kernel& kernel, std::uint32_t pc);

}  // namespace check_test
