// The emulator's checkers (emu/check) in libdppgemm-hipemu: on for every
// launch unless DPPGEMM_HIPEMU_CHECK=0. Each finding and each kernel fault is
// said once per process on stderr; with DPPGEMM_HIPEMU_FINDINGS_FILE set (as
// `dppgemm-emu exec` does) each also appends one line to that file, so that a
// supervising process can count them whatever the program does with its exit.
#pragma once

#include <string>
#include <vector>

#include "emu/check/finding.hpp"

namespace dppgemm::hipemu {

inline constexpr const char* kCheckVariable = "DPPGEMM_HIPEMU_CHECK";
inline constexpr const char* kFindingsFileVariable = "DPPGEMM_HIPEMU_FINDINGS_FILE";

bool checks_enabled();

// Says each finding not said before ("hipemu: finding: " and Finding::text()).
void report_findings(const std::vector<emu::check::Finding>& findings);
// Says a kernel fault ("hipemu: kernel fault: " and the message), once per message.
void report_fault(const std::string& message);

}  // namespace dppgemm::hipemu
