// The emulator's checkers (emu/check) in libdppgemm-hipemu: on for every
// launch unless DPPGEMM_HIPEMU_CHECK=0. API errors (an entry point returning
// an error, hipErrorNotReady aside) are findings too unless
// DPPGEMM_HIPEMU_API_ERRORS=0: a library that ignores a failed launch prints
// a wrong result and nothing else. Each finding, kernel fault and API error
// is said once per process on stderr; with DPPGEMM_HIPEMU_FINDINGS_FILE set
// (as `dppgemm-emu exec` does) each also appends one line to that file
// ("finding", "fault", "api-error"), so that a supervising process can count
// them whatever the program does with its exit.
#pragma once

#include <string>
#include <vector>

#include "emu/check/finding.hpp"

namespace dppgemm::hipemu {

inline constexpr const char* kCheckVariable = "DPPGEMM_HIPEMU_CHECK";
inline constexpr const char* kFindingsFileVariable = "DPPGEMM_HIPEMU_FINDINGS_FILE";
inline constexpr const char* kApiErrorsVariable = "DPPGEMM_HIPEMU_API_ERRORS";

bool checks_enabled();
bool api_errors_enabled();

// What the runtime says on stderr ("hipemu: " and the message), e.g. why a
// call fails. Said during an entry point's call, it also tells that call's
// API error apart from the same entry point's other errors.
void say(const std::string& message);

// Says each finding not said before ("hipemu: finding: " and Finding::text()).
void report_findings(const std::vector<emu::check::Finding>& findings);
// Says a kernel fault ("hipemu: kernel fault: " and the message), once per message.
void report_fault(const std::string& message);

}  // namespace dppgemm::hipemu
