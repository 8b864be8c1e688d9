#include "emu/check/finding.hpp"

#include <sstream>

namespace dppgemm::emu::check {

const char* rule_name(Rule rule) {
    const auto i = static_cast<std::size_t>(rule);
    return i < rule_count ? rule_table[i].name : "unknown-rule";
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
