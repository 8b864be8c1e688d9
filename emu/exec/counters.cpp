#include "emu/exec/counters.hpp"

#include <sstream>

namespace dppgemm::emu {

const char* inst_class_name(InstClass c) {
    static constexpr const char* names[] = {
        "salu",      "valu_without_dpp", "valu_dpp", "smem",    "vmem_load", "vmem_store", "lds_read",
        "lds_write", "branch",           "waitcnt",  "barrier", "nop",       "other"};
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
    lds_read_requests += o.lds_read_requests;
    lds_read_bytes += o.lds_read_bytes;
    lds_write_requests += o.lds_write_requests;
    lds_write_bytes += o.lds_write_bytes;
    lds_bank_conflict_cycles += o.lds_bank_conflict_cycles;
    global_read_bytes += o.global_read_bytes;
    global_write_bytes += o.global_write_bytes;
    scalar_read_bytes += o.scalar_read_bytes;
    waves += o.waves;
    workgroups += o.workgroups;
    valu_multiply_add += o.valu_multiply_add;
    return *this;
}

bool Counters::operator==(const Counters& o) const {
    return instructions == o.instructions && lds_read_requests == o.lds_read_requests &&
           lds_read_bytes == o.lds_read_bytes && lds_write_requests == o.lds_write_requests &&
           lds_write_bytes == o.lds_write_bytes && lds_bank_conflict_cycles == o.lds_bank_conflict_cycles &&
           global_read_bytes == o.global_read_bytes && global_write_bytes == o.global_write_bytes &&
           scalar_read_bytes == o.scalar_read_bytes && waves == o.waves && workgroups == o.workgroups &&
           valu_multiply_add == o.valu_multiply_add;
}

std::string Counters::to_json() const {
    std::ostringstream s;
    s << "{\n  \"instructions\": {";
    for (std::size_t i = 0; i < inst_class_count; ++i) {
        const bool all_valu = static_cast<InstClass>(i) == InstClass::valu_without_dpp;
        s << (i ? ", " : "") << '"' << (all_valu ? "valu" : inst_class_name(static_cast<InstClass>(i)))
          << "\": " << (all_valu ? valu() : instructions[i]);
    }
    s << "},\n  \"wave_instructions\": " << wave_instructions()             //
      << ",\n  \"lds_read_requests\": " << lds_read_requests                //
      << ",\n  \"lds_read_bytes\": " << lds_read_bytes                      //
      << ",\n  \"lds_write_requests\": " << lds_write_requests              //
      << ",\n  \"lds_write_bytes\": " << lds_write_bytes                    //
      << ",\n  \"lds_bank_conflict_cycles\": " << lds_bank_conflict_cycles  //
      << ",\n  \"global_read_bytes\": " << global_read_bytes                //
      << ",\n  \"global_write_bytes\": " << global_write_bytes              //
      << ",\n  \"scalar_read_bytes\": " << scalar_read_bytes                //
      << ",\n  \"valu_multiply_add\": " << valu_multiply_add                //
      << ",\n  \"waves\": " << waves << ",\n  \"workgroups\": " << workgroups << "\n}\n";
    return s.str();
}

}  // namespace dppgemm::emu
