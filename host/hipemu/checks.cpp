#include "checks.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <tuple>
#include <utility>

#include "guard.hpp"

namespace dppgemm::hipemu {

namespace {

std::mutex said_mutex;

void count_in_findings_file(const char* kind) {
    const char* path = std::getenv(kFindingsFileVariable);
    if (!path || !*path) return;
    if (FILE* file = std::fopen(path, "a")) {
        std::fprintf(file, "%s\n", kind);
        std::fclose(file);
    }
}

}  // namespace

bool api_errors_enabled() {
    static const bool enabled = [] {
        const char* text = std::getenv(kApiErrorsVariable);
        return !(text && std::strcmp(text, "0") == 0);
    }();
    return enabled;
}

namespace {

// What the runtime said during this thread's entry point call.
thread_local std::string said_in_call;

}  // namespace

void say(const std::string& message) {
    std::fprintf(stderr, "hipemu: %s\n", message.c_str());
    if (api_call_depth > 0) said_in_call += message + "\n";
}

hipError_t finish_api_call(const char* entry, hipError_t error) noexcept {
    try {
        const std::string said = std::exchange(said_in_call, std::string());
        // hipStreamQuery/hipEventQuery answer hipErrorNotReady while work is
        // pending: a state, not a failure.
        if (error == hipSuccess || error == hipErrorNotReady || !api_errors_enabled()) return error;
        // One finding per entry point, error and reason said: a loop of
        // failing launches is one, two libraries without the target two.
        static std::set<std::tuple<std::string, int, std::string>> reported;
        std::lock_guard<std::mutex> lock(said_mutex);
        if (!reported.emplace(entry, static_cast<int>(error), said).second) return error;
        std::fprintf(stderr, "hipemu: API error: %s returned %s (%s)\n", entry, hipGetErrorName(error),
                     hipGetErrorString(error));
        count_in_findings_file("api-error");
        std::fflush(stderr);
    } catch (...) {
        std::fprintf(stderr, "hipemu: API error: %s returned %s\n", entry, hipGetErrorName(error));
    }
    return error;
}

bool checks_enabled() {
    static const bool enabled = [] {
        const char* text = std::getenv(kCheckVariable);
        return !(text && std::strcmp(text, "0") == 0);
    }();
    return enabled;
}

void report_findings(const std::vector<emu::check::Finding>& findings) {
    // One finding per rule and place (kernel, pc, the earlier pc): a loop or a
    // grid repeats it in every wave and launch.
    static std::set<std::tuple<std::string, int, std::uint32_t, std::uint32_t>> said;
    std::lock_guard<std::mutex> lock(said_mutex);
    for (const emu::check::Finding& f : findings) {
        if (!said.emplace(f.kernel, static_cast<int>(f.rule), f.pc, f.has_earlier ? f.earlier_pc : ~0u).second)
            continue;
        std::fprintf(stderr, "hipemu: finding: %s\n", f.text().c_str());
        count_in_findings_file("finding");
    }
    std::fflush(stderr);
}

void report_fault(const std::string& message) {
    static std::set<std::string> said;
    std::lock_guard<std::mutex> lock(said_mutex);
    if (!said.insert(message).second) return;
    std::fprintf(stderr, "hipemu: kernel fault: %s\n", message.c_str());
    count_in_findings_file("fault");
    std::fflush(stderr);
}

}  // namespace dppgemm::hipemu
