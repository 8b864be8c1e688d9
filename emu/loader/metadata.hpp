#pragma once
// The code object's msgpack metadata (NT_AMDGPU_METADATA note), code object
// v4 and v5: the keys of LLVM's AMDGPUUsage "AMDHSA Code Object V3+ Metadata".

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dppgemm::emu {

enum class ValueKind : std::uint8_t {
    by_value,
    global_buffer,
    dynamic_shared_pointer,
    sampler,
    image,
    pipe,
    queue,
    hidden_global_offset_x,
    hidden_global_offset_y,
    hidden_global_offset_z,
    hidden_none,
    hidden_printf_buffer,
    hidden_hostcall_buffer,
    hidden_default_queue,
    hidden_completion_action,
    hidden_multigrid_sync_arg,
    hidden_block_count_x,
    hidden_block_count_y,
    hidden_block_count_z,
    hidden_group_size_x,
    hidden_group_size_y,
    hidden_group_size_z,
    hidden_remainder_x,
    hidden_remainder_y,
    hidden_remainder_z,
    hidden_grid_dims,
    hidden_heap_v1,
    hidden_dynamic_lds_size,
    hidden_private_base,
    hidden_shared_base,
    hidden_queue_ptr,
};
// The metadata spelling: "by_value", "hidden_block_count_x", ...
const char* value_kind_name(ValueKind kind);
std::optional<ValueKind> value_kind_from_name(const std::string& name);
// Hidden arguments are filled in by the dispatcher, not passed by the user.
bool is_hidden(ValueKind kind);

enum class AddressSpace : std::uint8_t { none, private_, global, constant, local, generic, region };
// "global", ...; "" for none.
const char* address_space_name(AddressSpace space);

struct KernelArgument {
    std::string name;       // ".name"; empty when absent (hipcc emits none)
    std::string type_name;  // ".type_name"; empty when absent
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    ValueKind value_kind = ValueKind::by_value;
    AddressSpace address_space = AddressSpace::none;  // pointers only
    std::optional<std::uint64_t> pointee_align;
    bool is_const = false;
    bool is_restrict = false;
    bool is_volatile = false;
};

struct KernelMetadata {
    std::string name;    // ".name"
    std::string symbol;  // ".symbol": the descriptor's symbol, "<name>.kd"
    std::uint64_t kernarg_segment_size = 0;
    std::uint64_t kernarg_segment_align = 0;
    std::uint64_t group_segment_fixed_size = 0;
    std::uint64_t private_segment_fixed_size = 0;
    std::uint64_t wavefront_size = 0;
    std::uint64_t sgpr_count = 0;
    std::uint64_t vgpr_count = 0;
    std::uint64_t agpr_count = 0;  // absent before gfx908: 0
    std::uint64_t max_flat_workgroup_size = 0;
    std::uint64_t sgpr_spill_count = 0;
    std::uint64_t vgpr_spill_count = 0;
    bool uses_dynamic_stack = false;
    std::vector<KernelArgument> args;
};

struct Metadata {
    unsigned version_major = 0;  // amdhsa.version: 1.1 for code object v4, 1.2 for v5
    unsigned version_minor = 0;
    std::string target;  // amdhsa.target ("amdgcn-amd-amdhsa--gfx906"), "" when absent
    std::vector<KernelMetadata> kernels;
};

// Parses the msgpack blob. Throws FormatError naming the key path and the
// offending value ("amdhsa.kernels[1].args[0].value_kind: unknown value
// kind 'hidden_foo'") for invalid msgpack, missing required keys, wrong
// types, unknown value kinds or address spaces, and arguments that lie
// outside the kernarg segment.
Metadata parse_metadata(const std::uint8_t* bytes, std::size_t size);

}  // namespace dppgemm::emu
