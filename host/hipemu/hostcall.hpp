// Host calls from kernels: the hostcall buffer ROCm's device library
// (ockl, hostcall_impl.cl and services.cl of ROCm 5.2) writes packets into
// through the `hidden_hostcall_buffer` kernel argument, and a host thread
// that serves them while a dispatch runs. The one service provided is
// printf (service 2, stdout and stderr); other services get a zero reply
// and a message on stderr, once.
//
// The buffer, as the device code reads it (all little-endian 64-bit):
//   +0  headers    device address of the packet headers
//   +8  payloads   device address of the payloads
//   +16 doorbell   hsa_signal_t: address of an amd_signal_t whose value the
//                  device increments after pushing a packet
//   +24 free_stack tagged index of the first free packet (0: none)
//   +32 ready_stack tagged index of the last packet pushed for the host
//   +40 index_mask index bits of a tagged index (ROCm 5.2: 64-bit)
// A header is {next, activemask, service (u32), control (u32)}: bit 0 of
// control is the ready flag the device sets and the host clears when the
// reply is in the payload. A payload holds 8 words for each of 64 lanes.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "emu/exec/address_space.hpp"

namespace dppgemm::hipemu {

// printf's message as services.cl sends it: a control word (bit 0: stderr),
// the format string, then each argument in one word (integers, doubles,
// pointers) or, for %s, its bytes up to and including the NUL padded to whole
// words. Returns the text; `chars` is printf's return value.
std::string format_device_printf(const std::uint64_t* words, std::size_t count, int* chars);

class HostcallService {
public:
    // The buffer's device address, created in `memory` on first use.
    std::uint64_t buffer(emu::DeviceMemory& memory);

    // Serves the buffer on a host thread from construction to destruction,
    // which first serves what is left. Only one session at a time.
    class Session {
    public:
        explicit Session(HostcallService& service);
        ~Session();
        Session(const Session&) = delete;
        Session& operator=(const Session&) = delete;

    private:
        HostcallService& service_;
        std::atomic<bool> stop_{false};
        std::thread thread_;
    };

private:
    // Takes the ready stack and answers every packet on it; false when it was empty.
    bool serve_ready_packets();
    void serve_lane(std::uint32_t service, std::uint64_t* slot);

    struct Layout;
    std::uint8_t* host_ = nullptr;  // the buffer's bytes in the emulator's memory
    std::uint64_t address_ = 0;
    std::map<std::uint64_t, std::vector<std::uint64_t>> messages_;  // printf messages being assembled, by id
    std::uint64_t next_message_id_ = 1;
    std::map<std::uint32_t, bool> unknown_services_said_;
};

}  // namespace dppgemm::hipemu
