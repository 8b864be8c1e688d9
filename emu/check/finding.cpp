#include "emu/check/finding.hpp"

#include <sstream>

namespace dppgemm::emu::check {

const char* rule_name(Rule rule) {
    static constexpr const char* names[rule_count] = {
        "read-before-wait",
        "overwrite-before-wait",
        "lds-race",
        "lds-unpublished-write",
        "global-race",
        "dpp-after-valu-write",
        "dpp-after-exec-write",
        "lane-select-after-valu",
        "vmem-sgpr-after-valu",
        "execz-vccz-after-valu",
        "div-fmas-after-vcc",
        "movrel-after-m0",
        "getreg-after-setreg",
        "store-data-overwrite",
        "valu-sgpr-after-valu",
        "readlane-after-valu",
        "rwlane-after-exec",
        "trans-forwarding",
        "lds-out-of-range",
        "lds-misaligned",
        "global-out-of-bounds",
        "scratch-without-allocation",
        "scratch-out-of-segment",
        "past-end-of-code",
        "watchdog",
        "execution-fault",
    };
    const auto i = static_cast<std::size_t>(rule);
    return i < rule_count ? names[i] : "unknown-rule";
}

std::string lane_list(std::uint64_t lanes) {
    std::ostringstream s;
    bool first = true;
    for (unsigned l = 0; l < 64;) {
        if (!((lanes >> l) & 1)) {
            ++l;
            continue;
        }
        unsigned end = l;
        while (end + 1 < 64 && ((lanes >> (end + 1)) & 1)) ++end;
        s << (first ? "" : ",") << l;
        if (end > l) s << "-" << end;
        first = false;
        l = end + 1;
    }
    return s.str();
}

std::string Finding::text() const {
    std::ostringstream s;
    s << "kernel '" << kernel << "': workgroup (" << workgroup[0] << "," << workgroup[1] << "," << workgroup[2]
      << ") wave " << wave;
    if (lanes) s << " lanes " << lane_list(lanes);
    s << " pc " << hex(pc) << ": " << instruction << "\n  [" << rule_name(rule) << "] " << message;
    if (has_earlier) {
        s << "\n  earlier: pc " << hex(earlier_pc);
        if (!earlier_where.empty()) s << " (" << earlier_where << ")";
        s << ": " << earlier_instruction;
    }
    if (occurrences > 1) s << "\n  (" << occurrences << " times in this dispatch)";
    return s.str();
}

}  // namespace dppgemm::emu::check
