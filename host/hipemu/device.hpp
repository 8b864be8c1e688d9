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

// hipDeviceGetAttribute for the device; nullopt for attributes it does not report.
std::optional<int> device_attribute(const hipDeviceProp_t& props, hipDeviceAttribute_t attribute);

}  // namespace dppgemm::hipemu
