#include "emu/tools/launch.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>

#include "emu/loader/read_file.hpp"

namespace dppgemm::emu::tools {
namespace {

bool parse_unsigned(const std::string& text, std::uint64_t& value) {
    if (text.empty()) return false;
    const bool is_hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const std::string digits = is_hex ? text.substr(2) : text;
    if (digits.empty()) return false;
    value = 0;
    const std::uint64_t base = is_hex ? 16 : 10;
    for (char c : digits) {
        std::uint64_t digit;
        if (c >= '0' && c <= '9') digit = std::uint64_t(c - '0');
        else if (is_hex && c >= 'a' && c <= 'f') digit = std::uint64_t(c - 'a' + 10);
        else if (is_hex && c >= 'A' && c <= 'F') digit = std::uint64_t(c - 'A' + 10);
        else return false;
        if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / base) return false;
        value = value * base + digit;
    }
    return true;
}

bool looks_like_float(const std::string& value) {
    const bool is_hex = value.find("0x") != std::string::npos || value.find("0X") != std::string::npos;
    if (is_hex) return false;
    return value.find_first_of(".eEfF") != std::string::npos || value.find("inf") != std::string::npos ||
           value.find("nan") != std::string::npos;
}

template <typename T>
std::vector<std::uint8_t> bytes_of(T value) {
    std::vector<std::uint8_t> bytes(sizeof value);
    std::memcpy(bytes.data(), &value, sizeof value);
    return bytes;
}

std::vector<std::uint8_t> read_file(const std::string& path, const std::string& option, std::uint64_t limit) {
    try {
        const std::vector<char> bytes = read_whole_file(path, limit);
        return {bytes.begin(), bytes.end()};
    } catch (const FileReadError& error) {
        switch (error.kind()) {
        case FileReadError::Kind::cannot_open:
            throw UsageError(option + ": cannot open '" + path + "': " + error.what());
        case FileReadError::Kind::not_a_file: throw UsageError(option + ": '" + path + "' is not a regular file");
        default: throw UsageError(option + ": '" + path + "': " + error.what());
        }
    }
}

std::string describe(const Kernel& kernel, std::size_t index) {
    const KernelArgument& arg = kernel.metadata.args[index];
    std::string text = "argument " + std::to_string(index);
    if (!arg.name.empty()) text += " '" + arg.name + "'";
    return text + " (" + value_kind_name(arg.value_kind) + ", " + std::to_string(arg.size) + " bytes)";
}

}  // namespace

std::array<std::uint32_t, 3> parse_dims(const std::string& text, const std::string& option) {
    std::array<std::uint32_t, 3> dims{1, 1, 1};
    std::size_t count = 0, begin = 0;
    while (true) {
        const std::size_t comma = text.find(',', begin);
        const std::string part = text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
        if (count == 3) throw UsageError(option + " '" + text + "': more than 3 dimensions");
        std::uint64_t value = 0;
        if (!parse_unsigned(part, value) || value == 0 || value > 0xffffffffu)
            throw UsageError(option + " '" + text + "': dimension " + std::to_string(count) + " ('" + part +
                             "') is not an integer in 1..4294967295");
        dims[count++] = static_cast<std::uint32_t>(value);
        if (comma == std::string::npos) break;
        begin = comma + 1;
    }
    return dims;
}

Assignment parse_assignment(const std::string& text, const std::string& option) {
    const std::size_t equals = text.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == text.size())
        throw UsageError(option + " '" + text + "': expected NAME=VALUE");
    return {text.substr(0, equals), text.substr(equals + 1)};
}

std::size_t find_argument(const Kernel& kernel, const std::string& name, const std::string& option) {
    const std::vector<KernelArgument>& args = kernel.metadata.args;
    std::optional<std::size_t> index;
    for (std::size_t i = 0; i < args.size() && !index; ++i)
        if (args[i].name == name) index = i;
    std::uint64_t position = 0;
    if (!index && parse_unsigned(name, position) && name.find_first_of("xX") == std::string::npos) {
        if (position >= args.size())
            throw UsageError(option + " " + name + ": kernel '" + kernel.name + "' has " + std::to_string(args.size()) +
                             " arguments");
        index = static_cast<std::size_t>(position);
    }
    if (!index) throw UsageError(option + " " + name + ": kernel '" + kernel.name + "' has no argument of that name");
    if (is_hidden(args[*index].value_kind))
        throw UsageError(option + " " + name + ": " + describe(kernel, *index) +
                         " is a hidden argument; the emulator fills it in");
    return *index;
}

std::vector<std::uint8_t> encode_by_value(const std::string& value, std::uint64_t size, const std::string& what) {
    if (looks_like_float(value)) {
        errno = 0;
        char* end = nullptr;
        std::string digits = value;
        if (!digits.empty() && (digits.back() == 'f' || digits.back() == 'F') && digits != "inf" && digits != "-inf")
            digits.pop_back();
        const double number = std::strtod(digits.c_str(), &end);
        if (digits.empty() || *end != '\0') throw UsageError(what + ": '" + value + "' is not a number");
        const bool too_large = errno == ERANGE && std::isinf(number);
        if (too_large || (size == 4 && std::isfinite(number) && std::fabs(number) > std::numeric_limits<float>::max()))
            throw UsageError(what + ": '" + value + "' is out of range for a " + std::to_string(size) +
                             "-byte float (largest finite: " + (size == 4 ? "3.40282e+38" : "1.79769e+308") + ")");
        // A nonzero value that the argument's float type cannot tell from 0 would
        // silently run as 0 (alpha = 1e-50 takes SGEMM's alpha == 0 path).
        const bool too_small =
            (errno == ERANGE && number == 0.0) || (size == 4 && number != 0.0 && static_cast<float>(number) == 0.0f);
        if (too_small)
            throw UsageError(
                what + ": '" + value + "' is too small for a " + std::to_string(size) +
                "-byte float: it would be 0 (smallest nonzero: " + (size == 4 ? "1.4013e-45" : "4.94066e-324") + ")");
        if (size == 4) return bytes_of(static_cast<float>(number));
        if (size == 8) return bytes_of(number);
        throw UsageError(what + ": '" + value + "' is a floating-point value, but the argument has " +
                         std::to_string(size) + " bytes (4 or 8 needed)");
    }
    const bool negative = !value.empty() && value[0] == '-';
    std::uint64_t magnitude = 0;
    if (!parse_unsigned(negative ? value.substr(1) : value, magnitude))
        throw UsageError(what + ": '" + value + "' is not a number");
    if (size != 1 && size != 2 && size != 4 && size != 8)
        throw UsageError(what + ": only 1, 2, 4 or 8-byte scalars can be given on the command line");
    const unsigned bits = static_cast<unsigned>(size * 8);
    const std::uint64_t unsigned_max = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
    const std::uint64_t negative_max = std::uint64_t(1) << (bits - 1);  // |INT_MIN|
    if (negative ? magnitude > negative_max : magnitude > unsigned_max)
        throw UsageError(what + ": '" + value + "' does not fit in " + std::to_string(size) + " bytes");
    const std::uint64_t word = negative ? ~magnitude + 1 : magnitude;
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(word >> (8 * i));
    return bytes;
}

std::uint64_t parse_watchdog(const std::string& text) {
    std::uint64_t value = 0;
    if (!parse_unsigned(text, value) || value > max_watchdog)
        throw UsageError("--watchdog '" + text + "': expected an instruction count in 0..2^48 (0: no watchdog)");
    return value;
}

void check_writable(const std::string& path, const std::string& option) {
    struct stat status {};
    if (::stat(path.c_str(), &status) == 0) {
        if (S_ISDIR(status.st_mode)) throw UsageError(option + ": '" + path + "' is a directory");
        if (::access(path.c_str(), W_OK) != 0)
            throw UsageError(option + ": cannot write '" + path + "': " + std::strerror(errno));
        return;
    }
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    const std::string directory = parent.empty() ? "." : parent.string();
    if (::access(directory.c_str(), W_OK | X_OK) != 0)
        throw UsageError(option + ": cannot write '" + path + "': " + std::strerror(errno));
}

std::uint64_t buffer_memory_limit() { return available_host_memory().value_or(std::uint64_t(64) << 30); }

LaunchPlan resolve_launch(const RunOptions& options, const CodeObject& code_object) {
    LaunchPlan plan;
    plan.kernel = code_object.find_kernel(options.kernel);
    if (!plan.kernel) {
        std::string known;
        for (const Kernel& k : code_object.kernels) known += (known.empty() ? "" : ", ") + k.name;
        throw UsageError("--kernel " + (options.kernel.empty() ? "''" : options.kernel) + ": no such kernel in " +
                         code_object.source + " (kernels: " + (known.empty() ? "none" : known) + ")");
    }
    const Kernel& kernel = *plan.kernel;
    plan.grid = options.grid;
    plan.block = options.block;
    plan.json = options.json;
    if (plan.json) check_writable(*plan.json, "--json");
    plan.threads = options.threads;

    const std::uint64_t workgroup_size = std::uint64_t(plan.block[0]) * plan.block[1] * plan.block[2];
    if (workgroup_size > kernel.metadata.max_flat_workgroup_size)
        throw UsageError("--block: " + std::to_string(workgroup_size) + " work-items per workgroup, kernel '" +
                         kernel.name + "' allows at most " + std::to_string(kernel.metadata.max_flat_workgroup_size));
    for (int d = 0; d < 3; ++d)
        if (std::uint64_t(plan.grid[d]) * plan.block[d] > 0xffffffffu)
            throw UsageError("--grid: dimension " + std::to_string(d) + " has " +
                             std::to_string(std::uint64_t(plan.grid[d]) * plan.block[d]) +
                             " work-items in total, more than 2^32-1");

    const std::vector<KernelArgument>& args = kernel.metadata.args;
    plan.kernarg.assign(static_cast<std::size_t>(kernel.metadata.kernarg_segment_size), 0);
    std::set<std::size_t> given;
    auto claim = [&](std::size_t index, const std::string& option, const std::string& name) {
        if (!given.insert(index).second)
            throw UsageError(option + " " + name + ": " + describe(kernel, index) + " is given more than once");
    };

    for (const Assignment& arg : options.args) {
        const std::size_t index = find_argument(kernel, arg.name, "--arg");
        if (args[index].value_kind != ValueKind::by_value)
            throw UsageError("--arg " + arg.name + ": " + describe(kernel, index) + " is not a by-value argument" +
                             (args[index].value_kind == ValueKind::global_buffer ? "; use --buffer" : ""));
        claim(index, "--arg", arg.name);
        const std::vector<std::uint8_t> bytes =
            encode_by_value(arg.value, args[index].size, "--arg " + arg.name + ": " + describe(kernel, index));
        std::memcpy(plan.kernarg.data() + args[index].offset, bytes.data(), bytes.size());
    }

    const std::uint64_t memory_limit = buffer_memory_limit();
    std::uint64_t buffer_bytes = 0;
    for (const Assignment& buffer : options.buffers) {
        const std::size_t index = find_argument(kernel, buffer.name, "--buffer");
        if (args[index].value_kind != ValueKind::global_buffer)
            throw UsageError("--buffer " + buffer.name + ": " + describe(kernel, index) + " is not a global buffer");
        claim(index, "--buffer", buffer.name);
        BufferBinding binding;
        binding.arg_index = index;
        const std::uint64_t room = memory_limit - buffer_bytes;
        if (buffer.value[0] == '@') {
            binding.initial = read_file(buffer.value.substr(1), "--buffer " + buffer.name, room);
            binding.size = binding.initial.size();
        } else {
            if (!parse_unsigned(buffer.value, binding.size))
                throw UsageError("--buffer " + buffer.name + "=" + buffer.value + ": expected a byte count or @FILE");
            if (binding.size > room)
                throw UsageError("--buffer " + buffer.name + "=" + buffer.value + ": " + describe_bytes(binding.size) +
                                 ","
                                 " more than the " +
                                 describe_bytes(room) + " left of the " + describe_bytes(memory_limit) +
                                 " the buffers may take (the machine's available memory)");
        }
        buffer_bytes += binding.size;
        plan.buffers.push_back(std::move(binding));
    }

    for (const Assignment& dump : options.dumps) {
        const std::size_t index = find_argument(kernel, dump.name, "--dump");
        BufferBinding* binding = nullptr;
        for (BufferBinding& b : plan.buffers)
            if (b.arg_index == index) binding = &b;
        if (!binding) throw UsageError("--dump " + dump.name + ": " + describe(kernel, index) + " has no --buffer");
        if (binding->dump_file) throw UsageError("--dump " + dump.name + ": dumped more than once");
        check_writable(dump.value, "--dump " + dump.name);
        binding->dump_file = dump.value;
    }

    for (std::size_t i = 0; i < args.size(); ++i) {
        if (is_hidden(args[i].value_kind) || given.count(i)) continue;
        if (args[i].value_kind == ValueKind::by_value)
            throw UsageError(describe(kernel, i) + " has no value: add --arg " +
                             (args[i].name.empty() ? std::to_string(i) : args[i].name) + "=VALUE");
        if (args[i].value_kind == ValueKind::global_buffer)
            throw UsageError(describe(kernel, i) + " has no buffer: add --buffer " +
                             (args[i].name.empty() ? std::to_string(i) : args[i].name) + "=BYTES or =@FILE");
        throw UsageError(describe(kernel, i) + ": this kind of argument is not supported by dppgemm-emu run");
    }
    std::sort(plan.buffers.begin(), plan.buffers.end(),
              [](const BufferBinding& a, const BufferBinding& b) { return a.arg_index < b.arg_index; });
    return plan;
}

}  // namespace dppgemm::emu::tools
