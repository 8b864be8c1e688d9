#pragma once
// The global wave sync (GWS) resources of a cooperative dispatch: 64 barrier
// or semaphore counters shared by every wave of the grid, driven by the
// GDS-only ds_gws_* instructions (sem_gws.cpp). Their state machine is the
// ISA's pseudo-code (Vega and MI100/MI200 ISA guides, DS_GWS_INIT,
// DS_GWS_BARRIER, DS_GWS_SEMA_V/BR/P/RELEASE_ALL):
//
//   init(value):     counter = value; flag = 0
//   barrier(value):  counter <= 0 ? (flag = !flag; counter = value: every
//                    queued wave is released, this one passes)
//                                 : (counter -= 1; the wave queues until
//                                    flag differs from the flag it saw)
//   sema_v:          counter += 1          sema_br(value): counter += value
//   sema_p:          the wave queues until counter > 0; then counter -= 1
//   sema_release_all: counter = the waves queued on it
//
// `value` is the first active lane's data: "number of waves - 1" (LLVM's
// llvm.amdgcn.ds.gws.init/barrier). The resource is M0[21:16] + offset
// (LLVM AMDGPUUsage). A queued wave is in WaveState::at_gws; the dispatch's
// scheduler wakes it (gws_try_wake) when its condition holds. A cooperative
// launch co-schedules every workgroup of the grid (dispatch.hpp), so a
// barrier over all of them is met; without one there are no GWS resources
// and a ds_gws_* instruction faults.

#include <array>
#include <cstdint>

namespace dppgemm::emu {

struct Wave;

struct GwsResource {
    std::int64_t counter = 0;
    bool flag = false;
    unsigned queued_p = 0;  // waves queued by ds_gws_sema_p
};

struct GlobalWaveSync {
    static constexpr unsigned resource_count = 64;
    std::array<GwsResource, resource_count> resources{};
};

// What a wave in WaveState::at_gws waits for.
enum class GwsWait : std::uint8_t { none, barrier, semaphore };

// Releases `w` (WaveState::at_gws) when what it waits for holds: returns
// true and makes it running.
bool gws_try_wake(Wave& w);

}  // namespace dppgemm::emu
