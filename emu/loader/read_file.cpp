#include "emu/loader/read_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace dppgemm::emu {

namespace {

struct FileDescriptor {
    int fd;
    ~FileDescriptor() {
        if (fd >= 0) ::close(fd);
    }
};

[[noreturn]] void fail(FileReadError::Kind kind, const std::string& problem) { throw FileReadError(kind, problem); }

}  // namespace

std::string describe_bytes(std::uint64_t bytes) {
    const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (bytes < 1024) return std::to_string(bytes) + " bytes";
    double value = double(bytes) / 1024;
    int unit = 0;
    while (value >= 1024 && unit < 5) value /= 1024, ++unit;
    char text[32];
    std::snprintf(text, sizeof text, "%.*f %s", value < 10 ? 1 : 0, value, units[unit]);
    return text;
}

std::optional<std::uint64_t> available_host_memory() {
    std::FILE* meminfo = std::fopen("/proc/meminfo", "r");
    if (!meminfo) return std::nullopt;
    std::optional<std::uint64_t> bytes;
    char line[256];
    while (std::fgets(line, sizeof line, meminfo)) {
        unsigned long long kib = 0;
        if (std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
            bytes = std::uint64_t(kib) * 1024;
            break;
        }
    }
    std::fclose(meminfo);
    return bytes;
}

std::vector<char> read_whole_file(const std::string& path, std::uint64_t limit) {
    // O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer.
    FileDescriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
    if (file.fd < 0) fail(FileReadError::Kind::cannot_open, std::strerror(errno));
    struct stat status {};
    if (::fstat(file.fd, &status) != 0) fail(FileReadError::Kind::cannot_open, std::strerror(errno));
    if (S_ISDIR(status.st_mode)) fail(FileReadError::Kind::not_a_file, "is a directory");
    const bool regular = S_ISREG(status.st_mode);
    if (regular && std::uint64_t(status.st_size) > limit)
        fail(FileReadError::Kind::too_large, "file of " + describe_bytes(std::uint64_t(status.st_size)) +
                                                 " is larger than the limit of " + describe_bytes(limit));
    // Reads block again (a pipe whose writer is still busy is waited for);
    // a FIFO that had no writer when opened reads as empty.
    if (!regular && limit > max_stream_bytes) limit = max_stream_bytes;
    const int flags = ::fcntl(file.fd, F_GETFL);
    if (flags >= 0) ::fcntl(file.fd, F_SETFL, flags & ~O_NONBLOCK);

    std::vector<char> bytes;
    if (regular) bytes.reserve(static_cast<std::size_t>(status.st_size));
    constexpr std::size_t chunk = std::size_t(1) << 16;
    while (true) {
        const std::size_t at = bytes.size();
        // One byte past the limit tells "exactly the limit" from "more".
        const std::uint64_t room = limit + 1 - at;
        const std::size_t want = static_cast<std::size_t>(room < chunk ? room : chunk);
        bytes.resize(at + want);
        const ssize_t got = ::read(file.fd, bytes.data() + at, want);
        if (got < 0 && errno == EINTR) {
            bytes.resize(at);
            continue;
        }
        if (got < 0) fail(FileReadError::Kind::read_failed, std::string("read error: ") + std::strerror(errno));
        bytes.resize(at + static_cast<std::size_t>(got));
        if (got == 0) break;
        if (bytes.size() > limit)
            fail(FileReadError::Kind::too_large,
                 "more than the limit of " + describe_bytes(limit) + " (not a regular file, read until the limit)");
    }
    return bytes;
}

}  // namespace dppgemm::emu
