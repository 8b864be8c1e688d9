#include "hostcall.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>

namespace dppgemm::hipemu {

namespace {

// services.cl's service numbers and message descriptor fields.
constexpr std::uint32_t kServicePrintf = 2;
constexpr std::uint32_t kServiceDeviceMemory = 3;  // device malloc/free (SERVICE_DEVMEM)
constexpr std::uint64_t kDescriptorBegin = 1u << 0;
constexpr std::uint64_t kDescriptorEnd = 1u << 1;
constexpr unsigned kDescriptorLengthShift = 5;  // 3 bits: words of the packet used, after the descriptor
constexpr std::uint64_t kDescriptorLengthMask = 7;
// The device keeps the descriptor it gets back and changes only the bits
// above; the host puts its message id in the rest.
constexpr unsigned kDescriptorIdShift = 8;
constexpr std::uint32_t kReadyFlag = 1;

constexpr std::uint64_t kPackets = 64;  // a power of two: index_mask = kPackets - 1
constexpr std::uint64_t kIndexMask = kPackets - 1;
constexpr std::size_t kHeaderBytes = 24;
constexpr std::size_t kPayloadBytes = 64 * 8 * 8;
constexpr std::size_t kSignalOffset = 64, kSignalBytes = 64;
constexpr std::size_t kHeadersOffset = kSignalOffset + kSignalBytes;
constexpr std::size_t kPayloadsOffset = 4096;
constexpr std::size_t kBufferBytes = kPayloadsOffset + kPackets * kPayloadBytes;
static_assert(kHeadersOffset + kPackets * kHeaderBytes <= kPayloadsOffset);

std::uint64_t* word_at(std::uint8_t* base, std::size_t offset) {
    return reinterpret_cast<std::uint64_t*>(base + offset);
}

// ---- printf formatting ----

struct Arguments {
    const std::uint64_t* at;
    const std::uint64_t* end;
    bool empty() const { return at == end; }
    std::uint64_t next() { return *at++; }
    // A string argument: its bytes up to the NUL (or the message's end), then
    // past the words they occupy.
    std::string next_string() {
        const char* bytes = reinterpret_cast<const char*>(at);
        const std::size_t available = std::size_t(end - at) * 8;
        const std::size_t length = strnlen(bytes, available);
        at += std::min<std::size_t>((length + 1 + 7) / 8, std::size_t(end - at));
        return std::string(bytes, length);
    }
};

template <class... T>
std::string c_format(const std::string& spec, T... values) {
    const int n = std::snprintf(nullptr, 0, spec.c_str(), values...);
    if (n <= 0) return "";
    std::string out(std::size_t(n) + 1, '\0');
    std::snprintf(out.data(), out.size(), spec.c_str(), values...);
    out.resize(std::size_t(n));
    return out;
}

// The integer as the length modifier reads it from the promoted argument.
long long signed_value(std::uint64_t word, const std::string& length) {
    if (length == "hh") return static_cast<signed char>(word);
    if (length == "h") return static_cast<short>(word);
    if (length.empty()) return static_cast<int>(word);
    return static_cast<long long>(word);
}
unsigned long long unsigned_value(std::uint64_t word, const std::string& length) {
    if (length == "hh") return static_cast<unsigned char>(word);
    if (length == "h") return static_cast<unsigned short>(word);
    if (length.empty()) return static_cast<unsigned int>(word);
    return word;
}

}  // namespace

std::string format_device_printf(const std::uint64_t* words, std::size_t count, int* chars) {
    std::string out;
    if (count < 2) {
        *chars = 0;
        return out;
    }
    Arguments args{words + 1, words + count};
    const std::string format = args.next_string();
    for (std::size_t i = 0; i < format.size();) {
        if (format[i] != '%') {
            out += format[i++];
            continue;
        }
        if (i + 1 < format.size() && format[i + 1] == '%') {
            out += '%';
            i += 2;
            continue;
        }
        // %[flags][width][.precision][length]conversion
        std::size_t j = i + 1;
        std::string flags, width, precision, length;
        bool has_precision = false;
        while (j < format.size() && std::strchr("-+ #0", format[j])) flags += format[j++];
        while (j < format.size() && (std::isdigit(static_cast<unsigned char>(format[j])) || format[j] == '*'))
            width += format[j++];
        if (j < format.size() && format[j] == '.') {
            has_precision = true;
            ++j;
            while (j < format.size() && (std::isdigit(static_cast<unsigned char>(format[j])) || format[j] == '*'))
                precision += format[j++];
        }
        while (j < format.size() && std::strchr("hljztLq", format[j])) length += format[j++];
        if (j >= format.size()) break;  // no conversion: as the C library, stop
        const char conversion = format[j++];
        // '*' takes the width or precision from the arguments, in order.
        if (width == "*") {
            if (args.empty()) break;
            width = std::to_string(static_cast<int>(args.next()));
        }
        if (precision == "*") {
            if (args.empty()) break;
            const int p = static_cast<int>(args.next());
            precision = p < 0 ? "" : std::to_string(p);
            has_precision = p >= 0;
        }
        const std::string prefix = "%" + flags + width + (has_precision ? "." + precision : "");
        if (args.empty()) break;  // fewer arguments than conversions: the rest is not printed
        switch (conversion) {
        case 'd':
        case 'i': out += c_format(prefix + "lld", signed_value(args.next(), length)); break;
        case 'u':
        case 'o':
        case 'x':
        case 'X': out += c_format(prefix + "ll" + conversion, unsigned_value(args.next(), length)); break;
        case 'c': out += c_format(prefix + "c", static_cast<int>(args.next())); break;
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A': {
            double d;
            const std::uint64_t bits = args.next();
            std::memcpy(&d, &bits, sizeof d);
            out += c_format(prefix + conversion, d);
            break;
        }
        case 's': out += c_format(prefix + "s", args.next_string().c_str()); break;
        case 'p': out += c_format(prefix + "p", reinterpret_cast<void*>(args.next())); break;
        case 'n': args.next(); break;          // nothing is written back to the device
        default: i = format.size(); continue;  // an unknown conversion ends the output
        }
        i = j;
    }
    *chars = static_cast<int>(out.size());
    return out;
}

// ---- the buffer and its service ----

std::uint64_t HostcallService::buffer(emu::DeviceMemory& memory) {
    if (address_) return address_;
    const std::uint64_t base = memory.allocate(kBufferBytes, "hostcall buffer");
    std::uint8_t* host = memory.translate(base, kBufferBytes);
    *word_at(host, 0) = base + kHeadersOffset;
    *word_at(host, 8) = base + kPayloadsOffset;
    *word_at(host, 16) = base + kSignalOffset;
    // Index 0 is the empty stack: packets 1..kPackets-1 are free, linked in order.
    *word_at(host, 24) = 1;
    *word_at(host, 32) = 0;
    *word_at(host, 40) = kIndexMask;
    // amd_signal_t: kind 1 (user), value 0, no event mailbox (so the device
    // sends no interrupt message).
    *word_at(host, kSignalOffset) = 1;
    for (std::uint64_t i = 1; i < kPackets; ++i)
        *word_at(host, kHeadersOffset + i * kHeaderBytes) = i + 1 < kPackets ? i + 1 : 0;
    host_ = host;
    address_ = base;
    return base;
}

HostcallService::Session::Session(HostcallService& service) : service_(service) {
    if (!service_.host_) return;
    thread_ = std::thread([this] {
        // Nothing may escape a thread (std::terminate): a failure ends the
        // service, and the waves waiting for it run into the watchdog.
        try {
            while (!stop_.load(std::memory_order_acquire))
                if (!service_.serve_ready_packets()) std::this_thread::sleep_for(std::chrono::microseconds(20));
            while (service_.serve_ready_packets()) {
            }
        } catch (const std::exception& e) {
            std::fprintf(stderr, "hipemu: the device hostcall service stopped: %s\n", e.what());
        }
    });
}

HostcallService::Session::~Session() {
    stop_.store(true, std::memory_order_release);
    if (thread_.joinable()) thread_.join();
    std::fflush(stdout);
}

bool HostcallService::serve_ready_packets() {
    std::uint64_t* ready_stack = word_at(host_, 32);
    std::uint64_t ready = __atomic_exchange_n(ready_stack, std::uint64_t{0}, __ATOMIC_ACQUIRE);
    if (!ready) return false;
    // A stack: the last packet pushed is first; answer in the order they came.
    std::vector<std::uint64_t> packets;
    for (std::uint64_t tagged = ready; tagged;
         tagged = *word_at(host_, kHeadersOffset + (tagged & kIndexMask) * kHeaderBytes))
        packets.push_back(tagged & kIndexMask);
    for (auto it = packets.rbegin(); it != packets.rend(); ++it) {
        std::uint8_t* header = host_ + kHeadersOffset + *it * kHeaderBytes;
        const std::uint64_t active = *word_at(header, 8);
        std::uint32_t service, control;
        std::memcpy(&service, header + 16, 4);
        auto* payload = reinterpret_cast<std::uint64_t*>(host_ + kPayloadsOffset + *it * kPayloadBytes);
        for (unsigned lane = 0; lane < 64; ++lane)
            if ((active >> lane) & 1) serve_lane(service, payload + lane * 8);
        auto* control_word = reinterpret_cast<std::uint32_t*>(header + 20);
        control = __atomic_load_n(control_word, __ATOMIC_RELAXED);
        __atomic_store_n(control_word, control & ~kReadyFlag, __ATOMIC_RELEASE);
    }
    return true;
}

void HostcallService::serve_lane(std::uint32_t service, std::uint64_t* slot) {
    if (service != kServicePrintf) {
        if (!unknown_services_said_[service]) {
            if (service == kServiceDeviceMemory)
                std::fprintf(stderr,
                             "hipemu: device-side malloc/free (hostcall service %u) is not provided; "
                             "malloc returns a null pointer\n",
                             service);
            else
                std::fprintf(stderr,
                             "hipemu: device hostcall service %u is not provided (only printf, 2); replying 0\n",
                             service);
            unknown_services_said_[service] = true;
        }
        slot[0] = slot[1] = 0;
        return;
    }
    const std::uint64_t descriptor = slot[0];
    std::uint64_t id = descriptor >> kDescriptorIdShift;
    if (descriptor & kDescriptorBegin) {
        id = next_message_id_++;
        messages_[id].clear();
    }
    auto message = messages_.find(id);
    if (message == messages_.end()) {
        std::fprintf(stderr, "hipemu: device printf: a message continues with unknown id %llu; ignored\n",
                     static_cast<unsigned long long>(id));
        slot[0] = slot[1] = 0;
        return;
    }
    const std::uint64_t words = (descriptor >> kDescriptorLengthShift) & kDescriptorLengthMask;
    message->second.insert(message->second.end(), slot + 1, slot + 1 + std::min<std::uint64_t>(words, 7));
    slot[1] = 0;
    if (!(descriptor & kDescriptorEnd)) {
        // The device sends its next packet with this descriptor, only the end
        // flag and length changed: the begin flag must not come back.
        slot[0] = id << kDescriptorIdShift;
        return;
    }
    const std::vector<std::uint64_t> text_words = std::move(message->second);
    messages_.erase(message);
    int chars = 0;
    const std::string text = format_device_printf(text_words.data(), text_words.size(), &chars);
    if (text_words.empty() || (text_words[0] & ~std::uint64_t{1})) {
        slot[0] = static_cast<std::uint64_t>(-1);  // unknown control word
        return;
    }
    FILE* stream = (text_words[0] & 1) ? stderr : stdout;
    std::fwrite(text.data(), 1, text.size(), stream);
    slot[0] = static_cast<std::uint64_t>(static_cast<std::int64_t>(chars));
}

}  // namespace dppgemm::hipemu
