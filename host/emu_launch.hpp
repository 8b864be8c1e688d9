// What the emu backend's launches share: decoded programs of embedded code
// objects, and one launch with the Options' model settings.
#pragma once

#include "backend.hpp"
#include "emu/exec/dispatch.hpp"

#include <string>

namespace dppgemm::detail {

// The kernel `kernel` of an embedded code object, decoded once per process.
const emu::Program& program_for(const dppgemm_code_object* co, const std::string& kernel);

// Launches `config` (its observer and only_workgroups are set here when
// Options::model asks for the cycle model), then fills r.counters and, with
// the model, r.modeled and r.modeled_sets. False with r.status and r.message
// set when the kernel faulted or a model parameter was refused.
bool launch_modeled(const emu::Program& program, emu::DeviceMemory& memory, emu::LaunchConfig& config,
                    const Options& options, Result& r);

}  // namespace dppgemm::detail
