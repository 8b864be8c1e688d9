#include "emu/loader/kernel_descriptor.hpp"

#include <cstring>
#include <sstream>

#include "emu/loader/error.hpp"
#include "emu/util.hpp"

namespace dppgemm::emu {
namespace {

// Byte offsets inside the descriptor.
constexpr std::size_t group_segment_fixed_size_at = 0;
constexpr std::size_t private_segment_fixed_size_at = 4;
constexpr std::size_t kernarg_size_at = 8;
constexpr std::size_t kernel_code_entry_byte_offset_at = 16;
constexpr std::size_t compute_pgm_rsrc3_at = 44;
constexpr std::size_t compute_pgm_rsrc1_at = 48;
constexpr std::size_t compute_pgm_rsrc2_at = 52;
constexpr std::size_t kernel_code_properties_at = 56;

template <typename T>
T read_le(const std::uint8_t* bytes, std::size_t at) {
    T value;  // the host is little-endian, like the code object
    std::memcpy(&value, bytes + at, sizeof value);
    return value;
}

constexpr unsigned field(std::uint32_t word, unsigned low_bit, unsigned width) {
    return (word >> low_bit) & ((1u << width) - 1);
}

[[noreturn]] void reject(const std::string& what) { throw FormatError("kernel descriptor: " + what); }

void require_zero_bytes(const std::uint8_t* bytes, std::size_t begin, std::size_t end) {
    for (std::size_t at = begin; at < end; ++at)
        if (bytes[at] != 0) reject("reserved byte " + std::to_string(at) + " is " + hex(bytes[at]) + ", must be 0");
}

void require_zero_bits(const char* word_name, std::uint32_t word, std::uint32_t reserved_mask) {
    if (word & reserved_mask)
        reject(std::string(word_name) + " " + hex(word) + " sets reserved bits " + hex(word & reserved_mask));
}

// Reserved bits for gfx9. rsrc1 27..31 (29..31 are gfx10 WGP_MODE,
// MEM_ORDERED, FWD_PROGRESS); rsrc2 31; rsrc3 is all reserved before gfx90a
// and keeps ACCUM_OFFSET (5:0) and TG_SPLIT (16) on gfx90a+.
constexpr std::uint32_t rsrc1_reserved = 0xf8000000u;
constexpr std::uint32_t rsrc2_reserved = 0x80000000u;
constexpr std::uint32_t rsrc3_used_gfx90a = 0x0001003fu;
// kernel_code_properties: bits 0..6 user SGPRs, 10 wave32, 11 dynamic stack.
constexpr std::uint16_t properties_reserved = 0xf380u;

}  // namespace

const char* round_mode_name(FloatRoundMode mode) {
    switch (mode) {
    case FloatRoundMode::near_even: return "near_even";
    case FloatRoundMode::plus_infinity: return "plus_infinity";
    case FloatRoundMode::minus_infinity: return "minus_infinity";
    case FloatRoundMode::toward_zero: return "toward_zero";
    }
    return "?";
}

const char* denorm_mode_name(FloatDenormMode mode) {
    switch (mode) {
    case FloatDenormMode::flush_src_dst: return "flush_src_dst";
    case FloatDenormMode::flush_dst: return "flush_dst";
    case FloatDenormMode::flush_src: return "flush_src";
    case FloatDenormMode::flush_none: return "flush_none";
    }
    return "?";
}

unsigned UserSgprs::count() const {
    return 4 * private_segment_buffer + 2 * dispatch_ptr + 2 * queue_ptr + 2 * kernarg_segment_ptr + 2 * dispatch_id +
           2 * flat_scratch_init + 1 * private_segment_size;
}

unsigned SystemSgprs::count() const {
    return workgroup_id_x + workgroup_id_y + workgroup_id_z + workgroup_info + private_segment_wave_offset;
}

KernelDescriptor decode_kernel_descriptor(const std::uint8_t (&bytes)[kernel_descriptor_size], Target target) {
    KernelDescriptor kd;
    kd.group_segment_fixed_size = read_le<std::uint32_t>(bytes, group_segment_fixed_size_at);
    kd.private_segment_fixed_size = read_le<std::uint32_t>(bytes, private_segment_fixed_size_at);
    kd.kernarg_size = read_le<std::uint32_t>(bytes, kernarg_size_at);
    kd.kernel_code_entry_byte_offset = read_le<std::int64_t>(bytes, kernel_code_entry_byte_offset_at);
    kd.compute_pgm_rsrc3 = read_le<std::uint32_t>(bytes, compute_pgm_rsrc3_at);
    kd.compute_pgm_rsrc1 = read_le<std::uint32_t>(bytes, compute_pgm_rsrc1_at);
    kd.compute_pgm_rsrc2 = read_le<std::uint32_t>(bytes, compute_pgm_rsrc2_at);
    kd.kernel_code_properties = read_le<std::uint16_t>(bytes, kernel_code_properties_at);

    require_zero_bytes(bytes, 12, 16);
    require_zero_bytes(bytes, 24, 44);
    require_zero_bytes(bytes, 58, 64);
    require_zero_bits("compute_pgm_rsrc1", kd.compute_pgm_rsrc1, rsrc1_reserved);
    require_zero_bits("compute_pgm_rsrc2", kd.compute_pgm_rsrc2, rsrc2_reserved);
    require_zero_bits("compute_pgm_rsrc3", kd.compute_pgm_rsrc3,
                      has_unified_vgpr_file(target) ? ~rsrc3_used_gfx90a : ~0u);
    require_zero_bits("kernel_code_properties", kd.kernel_code_properties, properties_reserved);

    const std::uint32_t rsrc1 = kd.compute_pgm_rsrc1;
    kd.vgpr_blocks = field(rsrc1, 0, 6);
    kd.sgpr_blocks = field(rsrc1, 6, 4);
    kd.priority = field(rsrc1, 10, 2);
    kd.float_mode.round_32 = FloatRoundMode(field(rsrc1, 12, 2));
    kd.float_mode.round_16_64 = FloatRoundMode(field(rsrc1, 14, 2));
    kd.float_mode.denorm_32 = FloatDenormMode(field(rsrc1, 16, 2));
    kd.float_mode.denorm_16_64 = FloatDenormMode(field(rsrc1, 18, 2));
    kd.float_mode.dx10_clamp = field(rsrc1, 21, 1);
    kd.float_mode.ieee_mode = field(rsrc1, 23, 1);
    kd.float_mode.fp16_overflow = field(rsrc1, 26, 1);

    kd.allocated_sgprs = (kd.sgpr_blocks + 1) * 8;
    if (has_unified_vgpr_file(target)) {
        kd.allocated_vgprs = (kd.vgpr_blocks + 1) * 8;
        kd.accum_offset = (field(kd.compute_pgm_rsrc3, 0, 6) + 1) * 4;
        kd.tg_split = field(kd.compute_pgm_rsrc3, 16, 1);
        if (kd.accum_offset > kd.allocated_vgprs)
            reject("accum_offset " + std::to_string(kd.accum_offset) + " is past the " +
                   std::to_string(kd.allocated_vgprs) + " allocated VGPRs (compute_pgm_rsrc1 " + hex(rsrc1) +
                   ", compute_pgm_rsrc3 " + hex(kd.compute_pgm_rsrc3) + ")");
        kd.arch_vgprs = kd.accum_offset;
        kd.acc_vgprs = kd.allocated_vgprs - kd.accum_offset;
    } else {
        kd.allocated_vgprs = (kd.vgpr_blocks + 1) * 4;
        kd.arch_vgprs = kd.allocated_vgprs;
        kd.acc_vgprs = has(target, Feature::agprs) ? kd.allocated_vgprs : 0;  // a separate AGPR file
    }

    const std::uint32_t rsrc2 = kd.compute_pgm_rsrc2;
    kd.system_sgprs.private_segment_wave_offset = field(rsrc2, 0, 1);
    kd.user_sgpr_count = field(rsrc2, 1, 5);
    kd.enable_trap_handler = field(rsrc2, 6, 1);
    kd.system_sgprs.workgroup_id_x = field(rsrc2, 7, 1);
    kd.system_sgprs.workgroup_id_y = field(rsrc2, 8, 1);
    kd.system_sgprs.workgroup_id_z = field(rsrc2, 9, 1);
    kd.system_sgprs.workgroup_info = field(rsrc2, 10, 1);
    kd.enable_vgpr_workitem_id = field(rsrc2, 11, 2);
    kd.exceptions = static_cast<std::uint8_t>(field(rsrc2, 24, 7));
    if (kd.enable_vgpr_workitem_id == 3)
        reject("compute_pgm_rsrc2 " + hex(rsrc2) + ": enable_vgpr_workitem_id is 3 (reserved; 0..2 allowed)");
    if (field(rsrc2, 15, 9) != 0)
        reject("compute_pgm_rsrc2 " + hex(rsrc2) + ": granulated_lds_size is " + std::to_string(field(rsrc2, 15, 9)) +
               ", must be 0 (the dispatcher sets it)");
    kd.workitem_ids_packed = has_packed_workitem_ids(target);

    const std::uint16_t properties = kd.kernel_code_properties;
    kd.user_sgprs.private_segment_buffer = properties & (1u << 0);
    kd.user_sgprs.dispatch_ptr = properties & (1u << 1);
    kd.user_sgprs.queue_ptr = properties & (1u << 2);
    kd.user_sgprs.kernarg_segment_ptr = properties & (1u << 3);
    kd.user_sgprs.dispatch_id = properties & (1u << 4);
    kd.user_sgprs.flat_scratch_init = properties & (1u << 5);
    kd.user_sgprs.private_segment_size = properties & (1u << 6);
    kd.uses_dynamic_stack = properties & (1u << 11);
    if (properties & (1u << 10))
        reject("kernel_code_properties " + hex(properties) + " enables wave32, but " + target_name(target) +
               " runs wave64 only");
    if (has_architected_flat_scratch(target) &&
        (kd.user_sgprs.private_segment_buffer || kd.user_sgprs.flat_scratch_init))
        reject("kernel_code_properties " + hex(properties) +
               " enables the private segment buffer or flat scratch init, which " + target_name(target) +
               " (architected flat scratch) does not have");
    // The hardware loads at most 16 user SGPRs.
    if (kd.user_sgpr_count > 16)
        reject("user_sgpr_count is " + std::to_string(kd.user_sgpr_count) + ", at most 16 allowed");
    if (kd.user_sgpr_count < kd.user_sgprs.count())
        reject("user_sgpr_count is " + std::to_string(kd.user_sgpr_count) + ", less than the " +
               std::to_string(kd.user_sgprs.count()) + " SGPRs the enabled user SGPRs take (kernel_code_properties " +
               hex(properties) + ")");
    return kd;
}

}  // namespace dppgemm::emu
