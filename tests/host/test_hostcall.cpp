// The device printf service of libdppgemm-hipemu without a kernel: the
// message format as ROCm 5.2's device library (services.cl) builds it, and
// the hostcall buffer protocol (hostcall_impl.cl) driven from the host side
// exactly as the device code drives it. The expected texts are what the C
// library's printf gives for the same arguments.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "host/hipemu/hostcall.hpp"

using dppgemm::hipemu::format_device_printf;
using dppgemm::hipemu::HostcallService;

namespace {

// A string argument as the device sends it: its bytes and NUL, padded to words.
void append_string(std::vector<std::uint64_t>& words, const std::string& text) {
    std::vector<char> bytes(text.begin(), text.end());
    bytes.push_back('\0');
    bytes.resize((bytes.size() + 7) / 8 * 8, '\0');
    const std::size_t at = words.size();
    words.resize(at + bytes.size() / 8);
    std::memcpy(words.data() + at, bytes.data(), bytes.size());
}

std::uint64_t bits(double d) {
    std::uint64_t b;
    std::memcpy(&b, &d, 8);
    return b;
}

std::string format(const std::vector<std::uint64_t>& words, int* chars = nullptr) {
    int n = 0;
    std::string text = format_device_printf(words.data(), words.size(), &n);
    if (chars) *chars = n;
    return text;
}

}  // namespace

TEST_CASE("device printf: conversions, lengths, strings, stars and missing arguments", "[hipemu][printf]") {
    std::vector<std::uint64_t> m = {0};
    append_string(m, "%d|%5.2f|%s|%x|%hhd|%lld|%c|%*d|%.*s|%%|%p\n");
    m.push_back(std::uint64_t(std::int64_t(-42)));  // ints arrive sign-extended
    m.push_back(bits(3.14159));
    append_string(m, "a string longer than one word");
    m.push_back(255);
    m.push_back(0x1ff);  // %hhd: the low byte, -1
    m.push_back(std::uint64_t(-9000000000000LL));
    m.push_back('z');
    m.push_back(6);
    m.push_back(7);
    m.push_back(2);
    append_string(m, "abc");
    m.push_back(0);
    char expected[256];
    std::snprintf(expected, sizeof expected, "%d|%5.2f|%s|%x|%hhd|%lld|%c|%*d|%.*s|%%|%p\n", -42, 3.14159,
                  "a string longer than one word", 255, (signed char)-1, -9000000000000LL, 'z', 6, 7, 2, "abc",
                  static_cast<void*>(nullptr));
    int chars = 0;
    CHECK(format(m, &chars) == expected);
    CHECK(chars == int(std::strlen(expected)));

    // A null %s arrives as one zero word: an empty string.
    std::vector<std::uint64_t> null_string = {0};
    append_string(null_string, "[%s] %d");
    null_string.push_back(0);
    null_string.push_back(5);
    CHECK(format(null_string) == "[] 5");

    // Fewer arguments than conversions: printing stops at the first missing one.
    std::vector<std::uint64_t> short_message = {0};
    append_string(short_message, "a=%d b=%d end");
    short_message.push_back(1);
    CHECK(format(short_message) == "a=1 b=");
}

TEST_CASE("device printf: the hostcall buffer protocol, as the device library drives it", "[hipemu][printf]") {
    dppgemm::emu::DeviceMemory memory;
    HostcallService service;
    const std::uint64_t buffer = service.buffer(memory);
    CHECK(service.buffer(memory) == buffer);  // one buffer
    auto word = [&](std::uint64_t address) { return reinterpret_cast<std::uint64_t*>(memory.translate(address, 8)); };
    const std::uint64_t headers = *word(buffer), payloads = *word(buffer + 8), signal = *word(buffer + 16);
    const std::uint64_t index_mask = *word(buffer + 40);
    CHECK(index_mask == 63);
    CHECK(*word(signal + 16) == 0);  // no event mailbox: the device sends no interrupt

    // One hostcall from lanes 0 and 3 (hostcall_impl.cl): pop a free packet,
    // fill header and payload, push it on the ready stack, ring the doorbell,
    // wait for the ready flag to clear, read the reply, return the packet.
    // Each lane is its own message, with its own descriptor.
    auto call = [&](std::uint64_t lane0_descriptor, std::uint64_t lane3_descriptor, std::vector<std::uint64_t> args) {
        std::uint64_t* free_stack = word(buffer + 24);
        const std::uint64_t packet = *free_stack;
        const std::uint64_t index = packet & index_mask;
        std::uint8_t* header = memory.translate(headers + index * 24, 24);
        *free_stack = *reinterpret_cast<std::uint64_t*>(header);
        std::uint64_t* payload = word(payloads + index * 4096);
        for (unsigned lane : {0u, 3u}) {
            payload[lane * 8] = lane == 0 ? lane0_descriptor : lane3_descriptor;
            for (std::size_t i = 0; i < 7; ++i) payload[lane * 8 + 1 + i] = i < args.size() ? args[i] : 0;
        }
        const std::uint64_t active = 0b1001;
        const std::uint32_t printf_service = 2, ready = 1;
        std::memcpy(header + 8, &active, 8);
        std::memcpy(header + 16, &printf_service, 4);
        std::memcpy(header + 20, &ready, 4);
        std::uint64_t* ready_stack = word(buffer + 32);
        std::uint64_t old = __atomic_load_n(ready_stack, __ATOMIC_RELAXED);
        do std::memcpy(header, &old, 8);
        while (!__atomic_compare_exchange_n(ready_stack, &old, packet, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
        __atomic_fetch_add(word(signal + 8), 1, __ATOMIC_RELEASE);
        auto* control = reinterpret_cast<std::uint32_t*>(header + 20);
        while (__atomic_load_n(control, __ATOMIC_ACQUIRE) & 1) std::this_thread::yield();
        const std::vector<std::uint64_t> reply = {payload[0], payload[1], payload[24], payload[25]};
        *reinterpret_cast<std::uint64_t*>(header) = *free_stack;
        *free_stack = packet + index_mask + 1;  // the tag changes, as the device library's return_packet does
        return reply;
    };

    HostcallService::Session serving(service);
    // __ockl_printf_begin: begin flag, one word (stdout).
    const std::vector<std::uint64_t> begun = call(0x21, 0x21, {0});
    CHECK(begun[0] != begun[2]);    // two messages
    CHECK((begun[0] & 0xff) == 0);  // only the message id comes back: no flags, no length
    CHECK((begun[2] & 0xff) == 0);
    CHECK(begun[0] != 0);
    // The format string in one packet ("hostcall %d\n" is 13 bytes: 2 words), then the argument, last.
    std::vector<std::uint64_t> text;
    append_string(text, "hostcall %d\n");
    REQUIRE(text.size() == 2);
    const std::vector<std::uint64_t> continued = call(begun[0] | (2u << 5), begun[2] | (2u << 5), text);
    CHECK(continued[0] == begun[0]);
    CHECK(continued[2] == begun[2]);
    const std::vector<std::uint64_t> done = call(begun[0] | 2u | (1u << 5), begun[2] | 2u | (1u << 5), {7});
    CHECK(done[0] == 11);  // printf's return value: "hostcall 7\n", printed twice, lane 0 first
    CHECK(done[2] == 11);
    // Each packet went back to the free stack with a new tag.
    CHECK(*word(buffer + 24) >> 6 >= 3);
}
