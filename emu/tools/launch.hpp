#pragma once
// `dppgemm-emu run` options checked against a kernel's metadata: what the
// executor needs to set up a dispatch, with every usage error found before
// anything runs.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "emu/loader/code_object.hpp"
#include "emu/tools/commands.hpp"

namespace dppgemm::emu::tools {

// A command-line mistake; the message names the option and the value.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// "X[,Y[,Z]]", each 1..2^32-1; missing dimensions are 1. option names the
// flag ("--grid") for the message.
std::array<std::uint32_t, 3> parse_dims(const std::string& text, const std::string& option);

// "NAME=VALUE" -> {NAME, VALUE}; NAME and VALUE non-empty.
Assignment parse_assignment(const std::string& text, const std::string& option);

// Index into kernel.metadata.args of the explicit (non-hidden) argument
// called `name`, or at position `name` ("0", "1", ...).
std::size_t find_argument(const Kernel& kernel, const std::string& name, const std::string& option);

// The bytes of a by-value argument of `size` bytes: integers (decimal, or
// 0x hex; signed or unsigned, range-checked) of 1, 2, 4 or 8 bytes; floats
// (with '.', an exponent, an 'f' suffix, inf or nan) of 4 (float) or 8
// (double) bytes.
std::vector<std::uint8_t> encode_by_value(const std::string& value, std::uint64_t size, const std::string& what);

struct BufferBinding {
    std::size_t arg_index = 0;  // into kernel->metadata.args (a global_buffer)
    std::uint64_t size = 0;     // bytes
    // A file's contents (@FILE), else empty: the buffer starts zeroed, and the
    // emulator's lazily zeroed memory costs nothing until the kernel writes.
    std::vector<std::uint8_t> initial;
    std::optional<std::string> dump_file;  // --dump: write the contents here after the run
};

struct LaunchPlan {
    const Kernel* kernel = nullptr;
    std::array<std::uint32_t, 3> grid{1, 1, 1};   // workgroups
    std::array<std::uint32_t, 3> block{1, 1, 1};  // work-items per workgroup
    // kernarg_segment_size bytes with the by-value arguments in place; buffer
    // pointers and hidden arguments are left zero for the executor.
    std::vector<std::uint8_t> kernarg;
    std::vector<BufferBinding> buffers;  // one per global_buffer argument, in argument order
    std::optional<std::string> json;
    unsigned threads = 0;
};

// --watchdog: instructions per wave, 0 (never) .. 2^48; throws UsageError.
std::uint64_t parse_watchdog(const std::string& text);

// Throws UsageError unless `path` can be written (an existing writable file,
// or a new file in a writable directory); nothing is created. For --dump and
// --json, checked before the run so that a long run's result is not lost.
void check_writable(const std::string& path, const std::string& option);

// Bytes the buffers of a run may take together: what the machine has
// available (MemAvailable), or 64 GiB when that is unknown.
std::uint64_t buffer_memory_limit();

// Checks the options against the code object; throws UsageError.
LaunchPlan resolve_launch(const RunOptions& options, const CodeObject& code_object);

}  // namespace dppgemm::emu::tools
