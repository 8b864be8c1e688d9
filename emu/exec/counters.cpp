#include "emu/exec/counters.hpp"

#include <sstream>

namespace dppgemm::emu {

const char* inst_class_name(InstClass c) {
    static constexpr const char* names[] = {
#define DPPGEMM_INSTRUCTION_CLASS(name, counts) #name,
#include "include/dppgemm/counters.def"
    };
    static_assert(sizeof(names) / sizeof(names[0]) == inst_class_count);
    return names[static_cast<std::size_t>(c)];
}

std::uint64_t Counters::wave_instructions() const {
    std::uint64_t total = 0;
    for (std::uint64_t n : instructions) total += n;
    return total;
}

Counters& Counters::operator+=(const Counters& o) {
    for (std::size_t i = 0; i < inst_class_count; ++i) instructions[i] += o.instructions[i];
#define DPPGEMM_COUNTER(name, counts) name += o.name;
#include "include/dppgemm/counters.def"
    return *this;
}

bool Counters::operator==(const Counters& o) const {
    return instructions == o.instructions
#define DPPGEMM_COUNTER(name, counts) &&name == o.name
#include "include/dppgemm/counters.def"
        ;
}

std::string Counters::to_json() const {
    std::ostringstream s;
    s << "{\n  \"wave_instructions\": " << wave_instructions();
    for (std::size_t i = 0; i < inst_class_count; ++i)
        s << ",\n  \"" << inst_class_name(static_cast<InstClass>(i)) << "\": " << instructions[i];
#define DPPGEMM_COUNTER(name, counts) s << ",\n  \"" #name "\": " << name;
#include "include/dppgemm/counters.def"
    s << "\n}\n";
    return s.str();
}

}  // namespace dppgemm::emu
