#pragma once
// Whole-file reads for inputs a user names on a command line or passes to
// hipModuleLoad: regular files, but also pipes, FIFOs and character devices
// (/dev/stdin, <(...), /dev/zero). None of them may block the caller forever
// or exhaust its memory: the read is capped, and a FIFO without a writer
// reads as empty instead of waiting for one.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace dppgemm::emu {

// Why a file could not be read; what() is the problem alone, the caller
// adds the path or option: the system's reason for cannot_open ("No such
// file or directory"), "is a directory" for not_a_file, a sentence with the
// sizes for too_large.
class FileReadError : public std::runtime_error {
public:
    enum class Kind { cannot_open, not_a_file, too_large, read_failed };
    FileReadError(Kind kind, const std::string& problem) : std::runtime_error(problem), kind_(kind) {}
    Kind kind() const { return kind_; }

private:
    Kind kind_;
};

// The contents of `path`, at most `limit` bytes; throws FileReadError for a
// directory, a file that cannot be opened or read, or more than `limit`
// bytes (regular files are refused by their size before any read). Pipes,
// FIFOs and devices, whose size nobody knows beforehand, are read up to
// max_stream_bytes at most.
inline constexpr std::uint64_t max_stream_bytes = std::uint64_t(1) << 28;
std::vector<char> read_whole_file(const std::string& path, std::uint64_t limit);

// "1.5 GiB", "12 MiB", "300 bytes": sizes in messages.
std::string describe_bytes(std::uint64_t bytes);

// The memory the host can give a new allocation without swapping, as Linux
// estimates it (/proc/meminfo MemAvailable); nullopt when unknown. Inputs that
// decide how much a run allocates are checked against it before allocating.
std::optional<std::uint64_t> available_host_memory();

}  // namespace dppgemm::emu
