// The GPU libdppgemm-hipemu pretends to be: one device, chosen by the
// environment variable DPPGEMM_HIPEMU_ARCH (the default target of
// include/dppgemm/targets.def when unset; a HIP target id such as
// gfx90a:sramecc+:xnack- is accepted and reported as given).
#pragma once

#include <hip/hip_runtime_api.h>

#include <optional>
#include <string>

#include "emu/loader/target.hpp"

namespace dppgemm::hipemu {

struct EmulatedDevice {
    emu::Target target;
    hipDeviceProp_t properties;
};

// The device for an arch string, or nullopt when the emulator has no such target.
std::optional<EmulatedDevice> emulated_device(const std::string& arch);

// hipDeviceGetAttribute for the device: each attribute ROCm 5.2 answers, from
// the device's properties as ROCm derives it (hipDeviceAttributeHdp*FlushCntl
// write a pointer through `value`, as ROCm does); hipErrorInvalidValue for the
// rest, as ROCm 5.2 returns for them.
hipError_t device_attribute(const EmulatedDevice& device, hipDeviceAttribute_t attribute, int* value);

}  // namespace dppgemm::hipemu
