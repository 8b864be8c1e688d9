#pragma once
// What a dispatch did, counted the way the hardware would see it: the rows
// of include/dppgemm/counters.def. Plain integers: each workgroup counts into
// its own copy and the dispatch sums them, so the totals do not depend on the
// number of host threads.

#include <array>
#include <cstdint>
#include <string>

namespace dppgemm::emu {

// Wave-level instruction classes, a partition of the instructions a wave
// issues: the DPPGEMM_INSTRUCTION_CLASS rows of counters.def, in order.
enum class InstClass : std::uint8_t {
#define DPPGEMM_INSTRUCTION_CLASS(name, counts) name,
#include "include/dppgemm/counters.def"
    count
};
inline constexpr std::size_t inst_class_count = static_cast<std::size_t>(InstClass::count);
// "salu", "valu", ...
const char* inst_class_name(InstClass c);

struct Counters {
    // One count per instruction class, indexed by InstClass.
    std::array<std::uint64_t, inst_class_count> instructions{};
    // The DPPGEMM_COUNTER rows of counters.def (bank-conflict cycles: lds.hpp).
#define DPPGEMM_COUNTER(name, counts) std::uint64_t name = 0;
#include "include/dppgemm/counters.def"

    std::uint64_t& operator[](InstClass c) { return instructions[static_cast<std::size_t>(c)]; }
    std::uint64_t operator[](InstClass c) const { return instructions[static_cast<std::size_t>(c)]; }
    // Every instruction a wave issued, once: the sum over the InstClass partition.
    std::uint64_t wave_instructions() const;
    Counters& operator+=(const Counters& other);
    bool operator==(const Counters& other) const;
    bool operator!=(const Counters& other) const { return !(*this == other); }
    // One flat JSON object, the same keys as dppgemm-bench's "counters":
    // "wave_instructions", then every row of counters.def in table order.
    std::string to_json() const;
};

}  // namespace dppgemm::emu
