#pragma once
// The 64-byte AMDHSA kernel descriptor (`<kernel>.kd`), decoded for a gfx9
// target. Field names follow LLVM's AMDGPUUsage ("Kernel Descriptor" and
// "compute_pgm_rsrc1/2/3" tables).

#include <cstddef>
#include <cstdint>

#include "emu/loader/target.hpp"

namespace dppgemm::emu {

inline constexpr std::size_t kernel_descriptor_size = 64;
// The largest kernarg segment (metadata kernarg_segment_size or descriptor
// kernarg_size) a code object may declare: the emulator's bound, 1 MiB, far
// above any compiler's output.
inline constexpr std::uint64_t max_kernarg_segment_size = 1u << 20;

enum class FloatRoundMode : std::uint8_t { near_even = 0, plus_infinity = 1, minus_infinity = 2, toward_zero = 3 };
enum class FloatDenormMode : std::uint8_t { flush_src_dst = 0, flush_dst = 1, flush_src = 2, flush_none = 3 };
const char* round_mode_name(FloatRoundMode mode);
const char* denorm_mode_name(FloatDenormMode mode);

// The MODE register the wave starts with (compute_pgm_rsrc1).
struct FloatMode {
    FloatRoundMode round_32 = FloatRoundMode::near_even;
    FloatRoundMode round_16_64 = FloatRoundMode::near_even;
    FloatDenormMode denorm_32 = FloatDenormMode::flush_src_dst;
    FloatDenormMode denorm_16_64 = FloatDenormMode::flush_src_dst;
    bool dx10_clamp = false;
    bool ieee_mode = false;
    bool fp16_overflow = false;  // FP16_OVFL: clamp fp16 overflow to max normal
};

// User SGPRs the dispatcher loads, in this order, starting at s0
// (kernel_code_properties bits 0..6).
struct UserSgprs {
    bool private_segment_buffer = false;  // 4 SGPRs
    bool dispatch_ptr = false;            // 2
    bool queue_ptr = false;               // 2
    bool kernarg_segment_ptr = false;     // 2
    bool dispatch_id = false;             // 2
    bool flat_scratch_init = false;       // 2
    bool private_segment_size = false;    // 1

    // SGPRs the enabled fields take, in total.
    unsigned count() const;
};

// SGPRs the hardware loads after the user SGPRs (compute_pgm_rsrc2), in order:
// workgroup id x, y, z, workgroup info, private segment wave offset.
struct SystemSgprs {
    bool workgroup_id_x = false;
    bool workgroup_id_y = false;
    bool workgroup_id_z = false;
    bool workgroup_info = false;
    bool private_segment_wave_offset = false;  // rsrc2 ENABLE_PRIVATE_SEGMENT

    unsigned count() const;
};

struct KernelDescriptor {
    // Raw fields, as stored.
    std::uint32_t group_segment_fixed_size = 0;    // LDS bytes
    std::uint32_t private_segment_fixed_size = 0;  // scratch bytes per work-item
    std::uint32_t kernarg_size = 0;
    std::int64_t kernel_code_entry_byte_offset = 0;  // from the descriptor's own address
    std::uint32_t compute_pgm_rsrc1 = 0;
    std::uint32_t compute_pgm_rsrc2 = 0;
    std::uint32_t compute_pgm_rsrc3 = 0;
    std::uint16_t kernel_code_properties = 0;

    // Register allocation. vgpr_blocks/sgpr_blocks are the granulated fields.
    unsigned vgpr_blocks = 0;
    unsigned sgpr_blocks = 0;
    // VGPRs allocated per lane: (vgpr_blocks + 1) * granule. On gfx90a+ the
    // granule is 8 and the count covers the unified file (VGPRs then AGPRs).
    unsigned allocated_vgprs = 0;
    unsigned arch_vgprs = 0;  // v0..v[arch_vgprs-1]
    // AGPRs: gfx908 has a separate file allocated like the VGPRs; gfx90a+
    // allocates allocated_vgprs - accum_offset of them; gfx900/906 have none.
    unsigned acc_vgprs = 0;
    unsigned accum_offset = 0;  // gfx90a+: first AGPR in the unified file (rsrc3)
    bool tg_split = false;      // gfx90a+ (rsrc3)
    // SGPRs allocated: (sgpr_blocks + 1) * 8, LLVM's gfx9 encoding granule;
    // includes VCC, FLAT_SCRATCH and XNACK_MASK when reserved.
    unsigned allocated_sgprs = 0;

    unsigned priority = 0;
    FloatMode float_mode;

    UserSgprs user_sgprs;
    unsigned user_sgpr_count = 0;  // rsrc2 USER_SGPR_COUNT, >= user_sgprs.count()
    SystemSgprs system_sgprs;
    bool enable_trap_handler = false;
    // 0: v0 = x; 1: x and y; 2: x, y and z (rsrc2 ENABLE_VGPR_WORKITEM_ID).
    unsigned enable_vgpr_workitem_id = 0;
    // gfx90a+: x, y, z packed into v0 bits 0..9, 10..19, 20..29; otherwise
    // one VGPR each (v0, v1, v2).
    bool workitem_ids_packed = false;
    std::uint8_t exceptions = 0;  // rsrc2 bits 24..30 (IEEE exceptions, int div by 0)

    bool uses_dynamic_stack = false;  // code object v5
};

// Decodes and checks a descriptor. Throws FormatError naming the field and
// value for reserved bits set, wave32 on gfx9, a workitem id mode of 3, a
// user SGPR count smaller than the enabled user SGPRs, an accum_offset past
// the allocated VGPRs, and features the target lacks.
KernelDescriptor decode_kernel_descriptor(const std::uint8_t (&bytes)[kernel_descriptor_size], Target target);

}  // namespace dppgemm::emu
