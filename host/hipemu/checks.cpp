#include "checks.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <tuple>

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
