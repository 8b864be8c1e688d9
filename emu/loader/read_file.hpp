#pragma once
// Whole-file reads for inputs a user names on a command line or passes to
// hipModuleLoad: regular files, but also pipes, FIFOs and character devices
// (/dev/stdin, <(...), /dev/zero). None of them may block the caller forever
// or exhaust its memory: the read is capped, and a FIFO without a writer
// reads as empty instead of waiting for one.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace dppgemm::emu {

// Why a file could not be read; what() is the problem alone ("is a
// directory", "cannot open: No such file or directory", ...), the caller
// adds the path or option.
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
// bytes (regular files are refused by their size before any read).
std::vector<char> read_whole_file(const std::string& path, std::uint64_t limit);

// "1.5 GiB", "12 MiB", "300 bytes": sizes in messages.
std::string describe_bytes(std::uint64_t bytes);

}  // namespace dppgemm::emu
